// A browser wallet for tests: an EIP-1193 `window.ethereum` injected into the page that answers
// wallet_* methods the way an extension does (4902 for an unknown network, optionally nested in
// data.originalError; 4001 when told to refuse) and forwards everything else to anvil, whose dev
// accounts really sign. The page talks to it like to MetaMask; the test steers it from Node.

const ERRORS = {
  rejected: { code: 4001, message: 'User rejected the request.' },
  unauthorized: { code: 4100, message: 'The requested account has not been authorized.' },
};

/** Injects the wallet into `page` (before its first navigation); `account` is an anvil dev account. */
export async function injectWallet(page, anvil, { account, nested = false } = {}) {
  const state = {
    account,
    connected: false,
    chainId: '0x1',
    known: new Set(['0x1']),
    refuse: new Set(),
    // Methods the wallet's node fails while they are listed (the wallet is connected, its node is not).
    down: new Set(),
    added: [],
    watched: [],
    calls: [],
  };
  const emit = (event, value) =>
    page.evaluate(([e, v]) => window.ethereum?._emit(e, v), [event, value]).catch(() => {});
  await page.exposeBinding('__walletRequest', async (_source, method, params) => {
    state.calls.push(method);
    if (state.refuse.has(method)) {
      state.refuse.delete(method);
      return { error: ERRORS.rejected };
    }
    if (state.down.has(method)) return { error: { code: -32603, message: 'Internal JSON-RPC error.' } };
    switch (method) {
      case 'eth_requestAccounts':
        state.connected = true;
        return { result: [state.account] };
      case 'eth_accounts':
        return { result: state.connected ? [state.account] : [] };
      case 'eth_chainId':
        return { result: state.chainId };
      case 'wallet_switchEthereumChain': {
        const { chainId } = params[0];
        if (!state.known.has(chainId)) {
          const unknown = { code: 4902, message: `Unrecognized chain ID ${chainId}` };
          return {
            error: nested
              ? { code: -32603, message: 'Internal JSON-RPC error.', data: { originalError: unknown } }
              : unknown,
          };
        }
        if (state.chainId !== chainId) {
          state.chainId = chainId;
          emit('chainChanged', chainId);
        }
        return { result: null };
      }
      case 'wallet_addEthereumChain':
        state.added.push(params[0]);
        state.known.add(params[0].chainId);
        return { result: null };
      case 'wallet_watchAsset':
        state.watched.push(params);
        return { result: true };
      case 'personal_sign':
      case 'eth_signTypedData_v4':
      case 'eth_sendTransaction':
        if (!state.connected) return { error: ERRORS.unauthorized };
        if (state.chainId !== '0x89') return { error: { code: -32603, message: 'wrong network' } };
        break;
      default:
    }
    const answer = await anvil.rpc(method, params);
    return answer.error ? { error: answer.error } : { result: answer.result };
  });
  await page.addInitScript(() => {
    const listeners = {};
    window.ethereum = {
      isMetaMask: true,
      async request({ method, params }) {
        const answer = await window.__walletRequest(method, params ?? []);
        if (answer.error) throw Object.assign(new Error(answer.error.message), answer.error);
        return answer.result;
      },
      on(event, fn) {
        (listeners[event] ??= new Set()).add(fn);
      },
      removeListener(event, fn) {
        listeners[event]?.delete(fn);
      },
      _emit(event, value) {
        for (const fn of listeners[event] ?? []) fn(value);
      },
    };
  });
  return {
    state,
    /** The next call of `method` is refused by "the user" (4001). */
    refuseNext(method) {
      state.refuse.add(method);
    },
    /** The user picks another account in the wallet. */
    async switchAccount(next) {
      state.account = next;
      await emit('accountsChanged', [next]);
    },
  };
}
