// The route tables of SPEC §2 that both the router (App.jsx) and the side menu (Shell.jsx) read:
// path → menu and page-title key, in menu order.

/** User area (SPEC §2 "User routes"): path → menu/title key. */
export const userRoutes = (product) => [
  ['dashboard', 'menu-dashboard'],
  [`token${product}`, 'menu-token'],
  ['myActives', 'menu-myActives'],
  ['dashboardNFTs', 'menu-dashboardNFTs'],
  ['vanguardprivateprotocol', 'menu-vanguard'],
  ['staking', 'menu-staking'],
  ['afiliates', 'menu-afiliates'],
  ['dashboardfaqs', 'menu-faqs'],
  ['activation-node', 'menu-activation-node'],
  ['rank-bonus', 'menu-rank-bonus'],
];

/** Admin side menu, in SPEC order. */
export const adminRoutes = [
  ['admin/tables/users', 'admin-menu-users'],
  ['admin/tables/ICO', 'admin-menu-ico'],
  ['admin/tables/NFTStaking', 'admin-menu-nft-staking'],
  ['admin/tables/LVLXStaking', 'admin-menu-lvlx-staking'],
  ['admin/activation-node', 'admin-menu-activation-node'],
  ['admin/ranks', 'admin-menu-ranks'],
  ['admin/edit-content', 'admin-menu-edit-content'],
  ['admin/secret-key', 'admin-menu-secret-key'],
];
