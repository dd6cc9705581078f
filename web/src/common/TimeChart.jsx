// A bar chart over the core's series ({grain, points: [{start, …}]}, every period present) on a
// real time axis, drawn by uPlot. Pointer and keyboard (arrow keys, Home, End once the chart has
// focus) read one period at a time in a live region below it; the exact figures come from
// `label` (the core's formatting), bar heights and axis ticks only from `value`.
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

const DAY_S = 86_400;
const toSeconds = (start) => Date.parse(`${start}T00:00:00Z`) / 1000;
const css = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

/** The period's name: its date, the week it starts, or its month, in the page's language. */
export function periodName(t, language, grain, start) {
  const date = new Date(`${start}T00:00:00Z`);
  if (grain === 'month')
    return new Intl.DateTimeFormat(language, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date);
  const day = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
  return grain === 'week' ? t('chart-week-of', { date: day }) : day;
}

// A count's axis steps by whole numbers (no "0.5 registrations").
const WHOLE_STEPS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500]
  .flatMap((n) => [n, n * 1e3, n * 1e6])
  .sort((a, b) => a - b);

// The time axis steps by whole periods: uPlot's own steps go down to hours, which a short range
// (one day of registrations) labelled as the same date a dozen times. Its months are 30 days and
// its years 365, which it then steps by the calendar.
const MONTH_S = 30 * DAY_S;
const YEARS = [1, 2, 5, 10].map((n) => n * 365 * DAY_S);
const MONTHS = [1, 2, 3, 4, 6].map((n) => n * MONTH_S).concat(YEARS);
const PERIOD_STEPS = {
  day: [1, 2, 3, 4, 5, 7, 14].map((n) => n * DAY_S).concat(MONTHS),
  week: [7, 14, 28].map((n) => n * DAY_S).concat(MONTHS),
  month: MONTHS,
};

/** Where the period starting at `start` (seconds) ends: a day, a week or a calendar month on. */
function periodEnd(grain, start) {
  if (grain === 'week') return start + 7 * DAY_S;
  if (grain !== 'month') return start + DAY_S;
  const day = new Date(start * 1000);
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + 1, 1) / 1000;
}

function options({ width, language, grain, whole, log, end, onCursor, onTicks, onDates }) {
  const count = new Intl.NumberFormat(language, { notation: 'compact', maximumFractionDigits: 1 });
  const tick = grain === 'month' ? { month: 'short', year: '2-digit' } : { day: 'numeric', month: 'short' };
  const dateTick = new Intl.DateTimeFormat(language, { ...tick, timeZone: 'UTC' });
  const axis = {
    stroke: css('--muted'),
    grid: { stroke: 'rgba(148, 163, 184, .16)' },
    ticks: { stroke: 'rgba(148, 163, 184, .3)' },
    font: '12px Lato, sans-serif',
  };
  return {
    width,
    height: 220,
    // The periods are UTC days (as their labels): the axis steps by UTC midnights, not the
    // reader's own, which would put a tick hours away from its bar west or east of Greenwich.
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    legend: { show: false },
    cursor: { y: false, points: { show: false }, drag: { x: false, y: false } },
    select: { show: false },
    // Logarithmic: one period holding most of the total (a month with 99 % of the volume) no
    // longer flattens every other bar to nothing; its bars stand on 1, empty periods have none.
    scales: {
      // To the end of the last period: its bar, drawn from the period's start, was cut in half.
      x: { time: true, range: (u, min) => [min, end] },
      y: log
        ? { distr: 3, log: 10, range: (u, min, max) => [1, Math.max(10, max * 2)] }
        : { range: (u, min, max) => [0, max > 0 ? max * 1.1 : 1] },
    },
    axes: [
      {
        ...axis,
        incrs: PERIOD_STEPS[grain],
        values: (u, splits) => {
          const dates = splits.map((s) => dateTick.format(new Date(s * 1000)));
          onDates(splits, dates, u.scales.x);
          return dates;
        },
      },
      {
        ...axis,
        size: 56,
        ...(whole && !log ? { incrs: WHOLE_STEPS } : {}),
        values: (u, splits) => {
          onTicks(splits);
          return splits.map((s) => count.format(s));
        },
      },
    ],
    series: [
      {},
      {
        fill: css('--primary'),
        stroke: css('--primary'),
        points: { show: false },
        paths: uPlot.paths.bars({ size: [0.8, 48], align: 1 }),
      },
    ],
    hooks: { setCursor: [(u) => onCursor(u.cursor.idx ?? null)] },
  };
}

/**
 * The uPlot chart of `series` drawn in `box` (again when the series, the language or the scale
 * changes), sized to the box's width; `onCursor(index)` follows the pointer. Answers the plot.
 */
function usePlot(box, series, value, { language, whole, log, onCursor }) {
  const plot = useRef(null);
  const points = series?.points ?? [];
  const grain = series?.grain ?? 'day';
  useEffect(() => {
    const el = box.current;
    if (!points.length || !el) return undefined;
    // Bars start at the period's first day; a one-period series still gets a day of axis.
    const xs = points.map((p) => toSeconds(p.start));
    const ys = points.map((p) => {
      const v = value(p);
      return log && !(v > 0) ? null : v;
    });
    const u = new uPlot(
      options({
        width: el.clientWidth,
        language,
        end: periodEnd(grain, xs[xs.length - 1]),
        grain,
        whole,
        log,
        onCursor,
        // The value axis's labelled ticks as drawn (on the canvas), in the box's data-y-ticks (a
        // logarithmic axis leaves some unlabelled: null).
        onTicks: (splits) =>
          el.setAttribute('data-y-ticks', splits.filter((v) => v !== null && v !== undefined).join(' ')),
        // The time axis as drawn: its ends in seconds in data-x-range, its ticks in data-x-splits,
        // labelled in data-x-ticks ("|" between them).
        onDates: (splits, dates, { min, max }) => {
          el.setAttribute('data-x-range', `${min} ${max}`);
          el.setAttribute('data-x-splits', splits.join(' '));
          el.setAttribute('data-x-ticks', dates.join('|'));
        },
      }),
      [xs.length > 1 ? xs : [xs[0], xs[0] + DAY_S], xs.length > 1 ? ys : [ys[0], null]],
      el,
    );
    plot.current = u;
    const resize = new ResizeObserver(() => u.setSize({ width: el.clientWidth, height: 220 }));
    resize.observe(el);
    onCursor(null);
    return () => {
      resize.disconnect();
      u.destroy();
      plot.current = null;
    };
    // `points` and `grain` come from `series`; `value` is a new function each render and is read
    // when the series changes, so the chart is not rebuilt on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [series, language, log]);
  return plot;
}

/**
 * `series`: the core's answer; `value(point)`: a Number to draw; `label(point)`: exact text;
 * `whole`: the values are counts (the axis shows whole numbers only).
 */
export default function TimeChart({ titleKey, series, value, label, whole = false }) {
  const { t, i18n } = useTranslation();
  const box = useRef(null);
  const [at, setAt] = useState(null);
  const [log, setLog] = useState(false);
  const hintId = useId();
  const captionId = useId();
  const points = series?.points ?? [];
  const grain = series?.grain ?? 'day';

  const plot = usePlot(box, series, value, { language: i18n.language, whole, log, onCursor: setAt });

  if (!points.length) return null;
  const move = (event) => {
    const last = points.length - 1;
    const next = { ArrowRight: (at ?? -1) + 1, ArrowLeft: (at ?? last + 1) - 1, Home: 0, End: last }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const idx = Math.max(0, Math.min(last, next));
    const u = plot.current;
    if (u) u.setCursor({ left: u.valToPos(u.data[0][idx], 'x'), top: u.valToPos(u.data[1][idx] ?? 0, 'y') });
    setAt(idx);
  };
  const shown = at !== null && points[at] ? points[at] : null;
  return (
    <figure className="time-chart">
      <figcaption id={captionId}>
        <span className="chart-title">{t(titleKey)}</span>
        <span className="muted"> · {t(`chart-by-${grain}`)}</span>
        <button
          type="button"
          className="button secondary small chart-scale"
          aria-pressed={log}
          onClick={() => setLog((on) => !on)}
          data-testid="chart-log"
        >
          {t('chart-log-scale')}
        </button>
      </figcaption>
      <div
        ref={box}
        className="chart-canvas"
        tabIndex={0}
        role="img"
        aria-labelledby={captionId}
        aria-describedby={hintId}
        onKeyDown={move}
        onBlur={() => setAt(null)}
        data-testid="chart-canvas"
      />
      <p className="chart-readout" aria-live="polite" data-testid="chart-readout">
        {shown ? (
          <>
            <strong>{periodName(t, i18n.language, grain, shown.start)}</strong>:{' '}
            <span translate="no">{label(shown)}</span>
          </>
        ) : (
          <span id={hintId} className="muted">
            {t('chart-hint')}
          </span>
        )}
      </p>
    </figure>
  );
}
