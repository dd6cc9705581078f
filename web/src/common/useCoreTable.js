// One admin table held in the WASM core: loads the Arrow rows once, then every filter, search,
// sort and page is a call into the core. React only ever sees the page on screen.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { coreErrorKey, nextSort, viewerOffsetMinutes } from '../core/index.js';

import { toastError } from './toast.jsx';
import useLoad from './useLoad.js';

export const PAGE_SIZES = [10, 25, 50, 100];

/** A statistics call's answer (`fetch(signal)`, null: not yet); errors become a toast. */
export function useStatistics(fetch) {
  const { data } = useLoad(fetch ?? null, [fetch], { onError: toastError });
  return data ?? null;
}

/** The General box of a statistics call. */
export function useGeneral(fetch) {
  return useStatistics(fetch)?.General ?? null;
}

/** One fetch shared by the tables of a screen: the first caller starts it; a failure is retried by the next. */
export function sharedFetch(fetch) {
  let pending = null;
  return (signal) => {
    pending ??= fetch(signal).catch((e) => {
      pending = null;
      throw e;
    });
    return pending;
  };
}

/**
 * A reload (new rows pushed live) keeps the viewer's search, sort and dates; a date left at the
 * old edge of the data (`before`) follows the new edge (`full`). The first load starts from the
 * full range.
 */
function followRange(q, before, full) {
  return q && before
    ? {
        ...q,
        start: q.start === (before.start ?? '') ? (full.start ?? '') : q.start,
        end: q.end === (before.end ?? '') ? (full.end ?? '') : q.end,
      }
    : { start: full.start ?? '', end: full.end ?? '', search: '', sort: null };
}

/**
 * Loads the core table into `table` (freed when replaced or unmounted) and starts or moves the
 * query (`setQuery`): the loading state, its progress, the full date range and the answer for
 * every row (no filter, a screen's general totals).
 */
function useTableLoad(load, table, setQuery) {
  const [status, setStatus] = useState({ loading: true, error: null });
  const [progress, setProgress] = useState(null);
  const [range, setRange] = useState(null);
  const [whole, setWhole] = useState(null);
  const shownRange = useRef(null);

  useEffect(() => {
    if (!load) return undefined;
    const controller = new AbortController();
    setProgress(null);
    load(controller.signal, (p) => {
      if (!controller.signal.aborted) setProgress(p);
    })
      .then((loaded) => {
        if (controller.signal.aborted) {
          loaded.free?.();
          return;
        }
        table.current?.free?.();
        table.current = loaded;
        const full = loaded.range(viewerOffsetMinutes(), Date.now());
        setWhole(loaded.query({ search: '', offsetMinutes: viewerOffsetMinutes() }));
        const before = shownRange.current;
        shownRange.current = full;
        setRange(full);
        setQuery((q) => followRange(q, before, full));
        setStatus({ loading: false, error: null });
      })
      .catch((error) => {
        if (error.name !== 'AbortError') setStatus({ loading: false, error });
      });
    return () => {
      controller.abort();
      table.current?.free?.();
      table.current = null;
    };
  }, [load, table, setQuery]);

  useEffect(() => {
    if (status.error) toastError(status.error);
  }, [status.error]);
  return { status, progress, range, whole };
}

/**
 * Runs each `query` in the core table: the answer, back to the first page. A refused date range
 * (`queryError`, its translation key) keeps the last good dates (`applied`) for the rest of it.
 */
function useTableAnswer(table, query, setPage) {
  const [answer, setAnswer] = useState(null);
  const [queryError, setQueryError] = useState(null);
  const [applied, setApplied] = useState(null);
  const lastApplied = useRef(null);

  useEffect(() => {
    if (!query || !table.current) return;
    // Beside dates, search and sort, a table's own filters (the users table's `kyc`) pass through.
    const { start, end, search, sort, ...filters } = query;
    const own = Object.fromEntries(Object.entries(filters).filter(([, v]) => v));
    const run = (dates) =>
      table.current.query({
        start: dates.start || undefined,
        end: dates.end || undefined,
        search,
        sort: sort ?? undefined,
        offsetMinutes: viewerOffsetMinutes(),
        ...own,
      });
    try {
      setAnswer(run({ start, end }));
      setQueryError(null);
      lastApplied.current = { start, end };
      setApplied(lastApplied.current);
      setPage((p) => ({ ...p, number: 1 }));
    } catch (e) {
      // The core's errors carry their translation key as the message. The rest of the query
      // (search, sort, the table's own filters) still applies, over the last valid dates.
      setQueryError(coreErrorKey(e));
      if (lastApplied.current) {
        setAnswer(run(lastApplied.current));
        setPage((p) => ({ ...p, number: 1 }));
      }
    }
  }, [query, table, setPage]);
  return { answer, queryError, applied };
}

/**
 * `load(signal, onProgress)` resolves to a core table (an AdminRows: ICO, users or staking); null:
 * not yet. Answers the loading state and its progress ({received, total} bytes of the rows, null
 * before the first), the full date range, the current query,
 * the last answer ({kept, totals|summary}) and the page.
 */
export function useCoreTable(load) {
  const table = useRef(null);
  const [query, setQuery] = useState(null);
  const [page, setPage] = useState({ number: 1, size: PAGE_SIZES[0] });
  const { status, progress, range, whole } = useTableLoad(load, table, setQuery);
  const { answer, queryError, applied } = useTableAnswer(table, query, setPage);

  const rows = useMemo(
    () => (answer && table.current ? table.current.page((page.number - 1) * page.size, page.size) : []),
    [answer, page],
  );

  const update = useCallback((change) => setQuery((q) => ({ ...q, ...change })), []);
  /** Back to every row: the full date range, no search and no table filter (the sort is kept). */
  const reset = useCallback(
    () => setQuery((q) => (range ? { sort: q.sort, start: range.start, end: range.end, search: '' } : q)),
    [range],
  );
  const sortBy = useCallback((column) => setQuery((q) => ({ ...q, sort: nextSort(q.sort, column) })), []);
  const csv = useCallback(() => table.current?.csv() ?? '', []);
  /** The kept rows' server ids in display order, and the CSV with the trails asked for them. */
  const keptIds = useCallback(() => Array.from(table.current?.keptIds() ?? []), []);
  const csvWith = useCallback((trails) => table.current?.csvWith(trails) ?? '', []);
  const series = useCallback(() => table.current?.series(viewerOffsetMinutes()) ?? null, []);

  return {
    ...status,
    progress,
    total: table.current?.length ?? 0,
    /** The columns the core's table sorts by (none before it loads). */
    sortable: table.current?.sortable ?? [],
    range,
    query,
    answer,
    whole,
    queryError,
    applied,
    rows,
    page,
    setPage,
    update,
    reset,
    sortBy,
    csv,
    keptIds,
    csvWith,
    series,
  };
}
