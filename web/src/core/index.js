// The only module that imports the WebAssembly core. Everything else imports from here, so
// every rule (validation, amounts, dates, guards) has exactly one implementation: the Rust one.
import * as core from '../../pkg/lvlx_core.js';

/** Translation key of the failure, or null. `other` is the value emailC/passwordC must equal. */
export const validateField = (field, value, other) =>
  core.validateField(field, value ?? '', other ?? undefined) ?? null;
/** An amount typed in the page's language checked against plain-decimal bounds: the failure's key, or null. */
export const validateAmount = (value, decimals, min, max, language = displayLanguage) =>
  core.validateAmount(value, decimals, min ?? undefined, max ?? undefined, language) ?? null;
export const isReferralCode = (code) => core.isReferralCode(code ?? '');
export const lvlxToUsdt = (baseUnits) => core.lvlxToUsdt(baseUnits);
export const formatUnits = (baseUnits, decimals) => core.formatUnits(baseUnits, decimals);
export const formatFixed = (baseUnits, decimals, digits) => core.formatFixed(baseUnits, decimals, digits);
export const parseUnits = (text, decimals) => core.parseUnits(text, decimals);
/** An amount typed in the page's language ("1,5" in es and pt) in base units; throws on text that is not one. */
export const parseAmount = (text, decimals, language = displayLanguage) => core.parseAmount(text, decimals, language);
/** A plain decimal as an amount field is filled in the page's language ("1.5" → es "1,5", never grouped). */
export const editableNumber = (plain, language = displayLanguage) => core.editableNumber(String(plain), language);

// The language amounts are shown in (digit grouping, decimal mark); i18n.js keeps it current.
let displayLanguage = 'en';
export const setDisplayLanguage = (language) => {
  displayLanguage = language;
};
/** A plain decimal ("8855540174.38") as the page's language writes it (en 8,855,540,174.38; es/pt 8.855.540.174,38). */
export const localizeNumber = (plain, language = displayLanguage) => core.localizeNumber(String(plain), language);
/** An amount as the interface shows it: 2 decimals of the token's own decimals, in the page's language. */
export const formatToken = (baseUnits, token, language = displayLanguage) =>
  core.formatTokenIn(baseUnits, token, language);
export const formatLvlx = (baseUnits, language) => formatToken(baseUnits, 'LVLX', language);
export const formatUsdt = (baseUnits, language) => formatToken(baseUnits, 'USDT', language);
/** An LVLX reward to the core's one precision for rewards (6 decimals), in the page's language. */
export const formatReward = (baseUnits, language = displayLanguage) => core.formatRewardIn(baseUnits, language);
/** formatRewardIn(baseUnits, language), as the vectors call it. */
export const formatRewardIn = (baseUnits, language) => core.formatRewardIn(baseUnits, language);
/** formatTokenIn(baseUnits, token, language), as the vectors call it. */
export const formatTokenIn = (baseUnits, token, language) => core.formatTokenIn(baseUnits, token, language);
/** The token's decimals: 6 for USDT, 18 for the product and MATIC. */
export const tokenDecimals = (token) => core.tokenDecimals(token);
/** The tokens' decimals, from the core (USDT 6, LVLX 18). */
export const USDT_DECIMALS = tokenDecimals('USDT');
export const LVLX_DECIMALS = tokenDecimals('LVLX');
/** A lock as people read it: {days, wholeDays, yearlyBps} (a rate over it as the simple rate of a year). */
export const lockTerms = (rateBps, lockSeconds) => core.lockTerms(rateBps, Number(lockSeconds));
/** The money history (GET wallet/history's `entries`) as CSV: exact decimals, UTC times. */
export const moneyHistoryCsv = (entries) => core.moneyHistoryCsv(entries);
/** The same history as CSV in the member's language: `words` {language, header[7], kinds, pending, final}. */
export const moneyHistoryCsvIn = (entries, words) => core.moneyHistoryCsvIn(entries, words);
/** Every kind of money-history entry (`history-kind-<name>` translates it). */
export const historyKinds = () => core.historyKinds();
/** Every owner action an admin may propose to the owners' Safe: [{contract, function, args, delayed}]. */
export const ownerActions = () => core.ownerActions();
/** An owner action's argument as typed in the page's language → the proposal's text; throws a key. */
export const readOwnerArg = (kind, text, language = displayLanguage) => core.readOwnerArg(kind, text, language);
/** A proposal's argument (its text) as people read it in the page's language. */
export const showOwnerArg = (kind, value, language = displayLanguage) => core.showOwnerArg(kind, value, language);
/** The content blocks admins edit (private protocol, dashboard notice), in menu order. */
export const contentBlocks = () => core.contentBlocks();
/** The interface's languages, the default first (the server sends the same list). */
export const languages = () => core.languages();
/** The most characters a form field takes (its `maxlength`), or undefined. */
export const fieldMaxLength = (field) => core.fieldMaxLength(field) ?? undefined;
export const sumUnits = (list) => core.sumUnits(list);
/**
 * A member's money account from the dashboard's `account` figures and the wallet's LVLX on
 * chain (null when unread): {wallet, staked, nfts, lockedUntil, accrued, claimable, paid, bought,
 * total, walletCounted, totalUsdt}.
 */
export const moneyAccount = (server, walletUnits) => core.moneyAccount(server, walletUnits ?? undefined);
export const shortWallet = (address) => core.shortWallet(address);
export const shortWalletMessage = (address) => core.shortWalletMessage(address);
export const truncateEmail = (email) => core.truncateEmail(email);
export const normalizeTimestamp = (n) => core.normalizeTimestamp(n);
export const calendarDate = (ms, offsetMinutes) => core.calendarDate(ms, offsetMinutes);
export const dayInRange = (day, start, end) => core.dayInRange(day, start ?? undefined, end ?? undefined);
/** Why a date range (an empty end is open) cannot filter: a translation key, or null when it can. */
export const rangeError = (start, end) => core.rangeError(start || undefined, end || undefined) ?? null;
/** A date as the language writes it in a field, and back (throws on an incomplete or impossible one). */
export const formatLocalDay = (day, language) => core.formatLocalDay(day, language);
export const parseLocalDay = (text, language) => core.parseLocalDay(text, language);
export const nextWeekly = (nowMs, weekday) => core.nextWeekly(nowMs, weekday);
/** Proof-of-work solution for a captcha challenge from the server. */
export const solveCaptcha = (challenge, difficulty) => core.solveCaptcha(challenge, difficulty);
export const decodeSession = (token) => core.decodeSession(token ?? '');

/**
 * Route guard decision for `kind` ("admin" | "user" | "public" | "verifyCode" | "reset"):
 * {action: "show" | "redirect" | "clearAndRedirect", to}.
 */
export const guard = (kind, stored, nowMs) => core.guard(kind, stored, nowMs);

/** The translation key of an error thrown by the core (its message; 'error-internal' for a caller's mistake). */
export const coreErrorKey = (e) => {
  const key = String(e?.message ?? '');
  return /^(error|validations|chain|buy|staking)-[\w.-]+$/.test(key) ? key : 'error-internal';
};

/** The viewer's offset from UTC in minutes, east positive, as the core's date rules take it. */
export const viewerOffsetMinutes = (date = new Date()) => -date.getTimezoneOffset();

/** The sort after a click on `column`: descending → ascending → none (null). */
export const nextSort = (current, column) => core.nextSort(current ?? null, column) ?? null;

/**
 * Admin tables held in the core's columns. `bytes` is an Arrow IPC stream (Uint8Array), copied
 * once into WebAssembly memory; rows never become JS objects except the page on screen.
 */
export const loadIcoRows = (bytes, product) => core.loadIcoRows(bytes, product);
export const loadUserRows = (bytes) => core.loadUserRows(bytes);
/** A table's columns as the core declares them once: `[{id, label, kind, sort, optional, spec}]`. */
export const adminColumns = (table) => core.adminColumns(table);
export const loadNodeRows = (bytes) => core.loadNodeRows(bytes);
/** One side ('entries' | 'stakers') of a staking screen ('nft' | 'lvlx'); `nowMs` decides what is still locked. */
export const loadStakeRows = (bytes, kind, side, nowMs) => core.loadStakeRows(bytes, kind, side, nowMs);

/** Wallet linking (EIP-4361): the text the wallet signs, on the server's chain; addresses in their EIP-55 form. */
export const siweMessage = (m) =>
  core.siweMessage(m.domain, m.address, m.statement, m.uri, m.chainId, m.nonce, m.issuedAt, m.expirationTime);
export const checksumAddress = (address) => core.checksumAddress(address) ?? null;
/** Whether two addresses name one account, whatever their letter case. */
export const sameAddress = (a, b) => Boolean(a && b && core.sameAddress(a, b));

/** The secret-key form's value sealed (AES-256-GCM) with the configured pass key. */
export const sealForTransport = (value, passKey, nonce) => core.sealForTransport(value, passKey, nonce);

/** Contract calls (ABI from contracts/artifacts, encoded by ethers-core): 0x calldata; args as text. */
export const calldata = (contract, fn, args = []) => core.calldata(contract, fn, args.map(String));
/** An eth_call's uint256 answer as decimal base units. */
export const decodeUint = (data) => core.decodeUint(data);
/** The translation key that explains a revert from its data. */
export const revertKey = (data) => core.revertKey(data ?? '0x');
/**
 * A purchase on the sale from what was typed on `side` ('usdt' | 'lvlx') at `price`, for a wallet
 * holding `balance` USDT of which the sale may spend `allowance`: {usdt, lvlx, needsApproval,
 * shortOfBalance}, or {error} (a translation key).
 */
export const purchasePlan = (side, text, price, balance, allowance, language = displayLanguage) =>
  core.purchasePlan(side, text ?? '', language, price, balance, allowance);
/** The explorer's page of a transaction, or null when no explorer is configured. */
export const explorerTx = (explorerUrl, hash) => core.explorerTx(explorerUrl ?? '', hash ?? '') ?? null;
/** The token contract's page on the explorer, or null without one. */
export const explorerToken = (explorerUrl, address) => core.explorerToken(explorerUrl ?? '', address ?? '') ?? null;
/** A video's ISO 8601 duration as a clock ("PT4M13S" → "4:13"), or null. */
export const videoDuration = (iso) => core.videoDuration(iso ?? '') ?? null;
/** LVLX base units that `usdt` base units buy at `price` (USDT base units per LVLX). */
export const quoteLvlx = (usdt, price) => core.quoteLvlx(usdt, price);
/** The least USDT base units that buy `lvlx` base units at `price`. */
export const usdtFor = (lvlx, price) => core.usdtFor(lvlx, price);

/**
 * Staking (the contracts' rules): what staking `amount` (NFTs, or LVLX base units) under `terms`
 * ({kind, usdtValue, rateBps, lockSeconds}) brings with `free` LVLX in the reserve at `now`
 * (seconds): {reward, rewardUsdt, release} or {error} (a translation key).
 */
/** The network (docs/product/network.md): a purchase's commissions, and where a volume stands among ranks. */
export const commissions = (amount, levelsBps, upline) => core.commissions(amount, Uint32Array.from(levelsBps), upline);
export const rankStanding = (volume, ranks, achieved) => core.rankStanding(volume, ranks, Uint32Array.from(achieved));
export const stakingQuote = (pool, terms, amount, free, now) =>
  core.stakingQuote(pool, terms.kind, terms.usdtValue, terms.rateBps, terms.lockSeconds, amount, free, now);
/** A position's {accrued, withdrawable, accruedUsdt, released, secondsLeft} at `at` (seconds). */
export const stakingStanding = (p, at) =>
  core.stakingStanding(p.reward, Math.floor(p.startDate / 1000), Math.floor(p.withdrawDate / 1000), p.withdrawn, at);
/** USDT base units `quantity` NFTs cost at `price` base units each. */
export const nftCost = (price, quantity) => core.nftCost(price, String(quantity));
