// The route tables (docs/product/screens.md#routes), the one list the router (App.jsx), the side
// menu (Shell.jsx) and the browser tests read: path → menu and page-title key → the page, loaded on
// demand, in menu order.

/** A page loaded on demand (a page that fails to load shows the router's error page). */
export const page = (load) => async () => ({ Component: (await load()).default });

/**
 * Public pages (docs/product/screens.md#public-routes): [path, guard (the core's name; null:
 * anyone), page]. The landing paths (`/`, `/home`, `/faqs`, `/register`) go to the landing page
 * instead.
 */
export const publicRoutes = [
  [
    'register/referred/:referralCode',
    'referral',
    page(() => import(/* webpackChunkName: "page-register" */ './accounts/RegisterReferred.jsx')),
  ],
  ['login', 'public', page(() => import(/* webpackChunkName: "page-login" */ './accounts/Login.jsx'))],
  ['recover', 'public', page(() => import(/* webpackChunkName: "page-recover" */ './accounts/Recover.jsx'))],
  ['solvency', null, page(() => import(/* webpackChunkName: "page-solvency" */ './books/Solvency.jsx'))],
  ['verifycode', 'verifyCode', page(() => import(/* webpackChunkName: "page-verify" */ './accounts/VerifyCode.jsx'))],
  ['reset', 'reset', page(() => import(/* webpackChunkName: "page-reset" */ './accounts/Reset.jsx'))],
];

/** Paths the landing page answers. */
export const landingPaths = ['', 'home', 'faqs', 'register'];

/**
 * User area (docs/product/screens.md#member-routes): [path, menu/title key, page, ready: what shows
 * once the page has its content (the browser tests wait for it on every route), open: whether it
 * works without a linked wallet (the dashboard, where linking happens, and the FAQ, which explains
 * how to set a wallet up); the others send a member without one to the dashboard's wallet box and
 * are marked in the menu].
 */
export const userRoutes = (product) => [
  [
    'dashboard',
    'menu-dashboard',
    page(() => import(/* webpackChunkName: "page-dashboard" */ './dashboard/Dashboard.jsx')),
    '[data-testid="kyc-status"]',
    true,
  ],
  [
    `token${product}`,
    'menu-token',
    page(() => import(/* webpackChunkName: "page-token" */ './token/TokenLvlx.jsx')),
    '[data-testid="onramp-faq"], [data-testid="onramp"]',
  ],
  [
    'myActives',
    'menu-myActives',
    page(() => import(/* webpackChunkName: "page-my-actives" */ './token/MyActives.jsx')),
    '[data-testid="actives-balance"]',
  ],
  [
    'dashboardNFTs',
    'menu-dashboardNFTs',
    page(() => import(/* webpackChunkName: "page-nfts" */ './staking/DashboardNfts.jsx')),
    'h1',
  ],
  [
    'vanguardprivateprotocol',
    'menu-vanguard',
    page(() => import(/* webpackChunkName: "page-private-protocol" */ './help/PrivateProtocol.jsx')),
    'h1',
  ],
  ['staking', 'menu-staking', page(() => import(/* webpackChunkName: "page-staking" */ './staking/Staking.jsx')), 'h1'],
  [
    'afiliates',
    'menu-afiliates',
    page(() => import(/* webpackChunkName: "page-afiliates" */ './network/Afiliates.jsx')),
    'h1',
  ],
  [
    'dashboardfaqs',
    'menu-faqs',
    page(() => import(/* webpackChunkName: "page-faqs" */ './help/Faqs.jsx')),
    'details.faq-item',
    true,
  ],
  [
    'activation-node',
    'menu-activation-node',
    page(() => import(/* webpackChunkName: "page-activation-node" */ './network/ActivationNode.jsx')),
    'h1',
  ],
  [
    'rank-bonus',
    'menu-rank-bonus',
    page(() => import(/* webpackChunkName: "page-rank-bonus" */ './network/RankBonus.jsx')),
    'h1',
  ],
  [
    'owner-changes',
    'menu-owner-changes',
    page(() => import(/* webpackChunkName: "page-owner-changes" */ './owners/OwnerChanges.jsx')),
    '[data-testid="owner-list"]',
  ],
];

/** A table's first row: a row of the wide table, or a card on a phone. */
const ROWS = '.rdt_TableRow, .row-card';

/** Admin area, in menu order (docs/product/screens.md#admin-routes): as the user area's. */
export const adminRoutes = [
  [
    'admin/tables/users',
    'admin-menu-users',
    page(() => import(/* webpackChunkName: "admin-users" */ './admin/UsersTable.jsx')),
    ROWS,
  ],
  [
    'admin/tables/ICO',
    'admin-menu-ico',
    page(() => import(/* webpackChunkName: "admin-ico" */ './admin/IcoTable.jsx')),
    ROWS,
  ],
  [
    'admin/tables/NFTStaking',
    'admin-menu-nft-staking',
    page(() => import(/* webpackChunkName: "admin-nft-staking" */ './staking/admin/NftStaking.jsx')),
    ROWS,
  ],
  [
    'admin/tables/LVLXStaking',
    'admin-menu-lvlx-staking',
    page(() => import(/* webpackChunkName: "admin-lvlx-staking" */ './staking/admin/LvlxStaking.jsx')),
    ROWS,
  ],
  [
    'admin/activation-node',
    'admin-menu-activation-node',
    page(() => import(/* webpackChunkName: "admin-activation-node" */ './network/admin/ActivationNodes.jsx')),
    'h1',
  ],
  [
    'admin/ranks',
    'admin-menu-ranks',
    page(() => import(/* webpackChunkName: "admin-ranks" */ './network/admin/Ranks.jsx')),
    'h1',
  ],
  [
    'admin/edit-content',
    'admin-menu-edit-content',
    page(() => import(/* webpackChunkName: "admin-edit-content" */ './admin/EditContent.jsx')),
    'form.content-form',
  ],
  [
    'admin/secret-key',
    'admin-menu-secret-key',
    page(() => import(/* webpackChunkName: "admin-secret-key" */ './admin/SecretKey.jsx')),
    'form',
  ],
  [
    'admin/owner-changes',
    'admin-menu-owner-changes',
    page(() => import(/* webpackChunkName: "page-owner-changes" */ './owners/OwnerChanges.jsx')),
    '[data-testid="owner-list"]',
  ],
  [
    'admin/owner-proposals',
    'admin-menu-owner-proposals',
    page(() => import(/* webpackChunkName: "admin-owner-proposals" */ './owners/OwnerProposals.jsx')),
    '[data-testid="owner-safe"]',
  ],
  [
    'admin/audit',
    'admin-menu-audit',
    page(() => import(/* webpackChunkName: "admin-audit" */ './admin/Audit.jsx')),
    '[data-testid="audit-total"]',
  ],
  [
    'admin/books',
    'admin-menu-books',
    page(() => import(/* webpackChunkName: "admin-books" */ './books/Books.jsx')),
    '[data-testid="books-check"]',
  ],
];
