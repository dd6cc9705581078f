// Every route of SPEC §2, each under the guard SPEC §2 gives it (decided by the core).
import { useMemo } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { guardLoader, referralGate } from './session/guards.js';
import Root from './components/Root.jsx';
import Shell from './components/Shell.jsx';
import RouteError from './pages/RouteError.jsx';
import LandingRedirect from './pages/LandingRedirect.jsx';
import NotFound from './pages/NotFound.jsx';
import { adminRoutes, userRoutes } from './routes.js';

// Pages load on demand; a page that fails to load shows the router's error page.
const page = (load) => async () => ({ Component: (await load()).default });

/** Every user page. */
const userPageList = {
  dashboard: { lazy: page(() => import(/* webpackChunkName: "page-dashboard" */ './pages/Dashboard.jsx')) },
  vanguardprivateprotocol: {
    lazy: page(() => import(/* webpackChunkName: "page-private-protocol" */ './pages/PrivateProtocol.jsx')),
  },
  myActives: { lazy: page(() => import(/* webpackChunkName: "page-my-actives" */ './pages/MyActives.jsx')) },
  dashboardNFTs: { lazy: page(() => import(/* webpackChunkName: "page-nfts" */ './pages/DashboardNfts.jsx')) },
  staking: { lazy: page(() => import(/* webpackChunkName: "page-staking" */ './pages/Staking.jsx')) },
  afiliates: { lazy: page(() => import(/* webpackChunkName: "page-afiliates" */ './pages/Afiliates.jsx')) },
  'activation-node': {
    lazy: page(() => import(/* webpackChunkName: "page-activation-node" */ './pages/ActivationNode.jsx')),
  },
  'rank-bonus': { lazy: page(() => import(/* webpackChunkName: "page-rank-bonus" */ './pages/RankBonus.jsx')) },
  dashboardfaqs: { lazy: page(() => import(/* webpackChunkName: "page-faqs" */ './pages/Faqs.jsx')) },
};
const userPages = (product) => ({
  [`token${product}`]: { lazy: page(() => import(/* webpackChunkName: "page-token" */ './pages/TokenLvlx.jsx')) },
  ...userPageList,
});

/** Every admin screen. */
const adminPages = {
  'admin/tables/ICO': { lazy: page(() => import(/* webpackChunkName: "admin-ico" */ './pages/admin/IcoTable.jsx')) },
  'admin/tables/users': {
    lazy: page(() => import(/* webpackChunkName: "admin-users" */ './pages/admin/UsersTable.jsx')),
  },
  'admin/tables/NFTStaking': {
    lazy: page(() => import(/* webpackChunkName: "admin-nft-staking" */ './pages/admin/NftStaking.jsx')),
  },
  'admin/tables/LVLXStaking': {
    lazy: page(() => import(/* webpackChunkName: "admin-lvlx-staking" */ './pages/admin/LvlxStaking.jsx')),
  },
  'admin/activation-node': {
    lazy: page(() => import(/* webpackChunkName: "admin-activation-node" */ './pages/admin/ActivationNodes.jsx')),
  },
  'admin/ranks': { lazy: page(() => import(/* webpackChunkName: "admin-ranks" */ './pages/admin/Ranks.jsx')) },
  'admin/edit-content': {
    lazy: page(() => import(/* webpackChunkName: "admin-edit-content" */ './pages/admin/EditContent.jsx')),
  },
  'admin/secret-key': {
    lazy: page(() => import(/* webpackChunkName: "admin-secret-key" */ './pages/admin/SecretKey.jsx')),
  },
};

function routes(product) {
  return [
    {
      element: <Root />,
      errorElement: <RouteError />,
      hydrateFallbackElement: <div className="boot-spinner" role="status" aria-busy="true" />,
      children: [
        {
          // Errors of a page render inside Root, so toasts and the cookie banner stay.
          errorElement: <RouteError />,
          children: [
            ...['/', '/home', '/faqs', '/register'].map((path) => ({ path, element: <LandingRedirect /> })),
            {
              path: '/register/referred/:referralCode',
              loader: referralGate,
              lazy: page(() => import(/* webpackChunkName: "page-register" */ './pages/RegisterReferred.jsx')),
            },
            {
              path: '/login',
              loader: guardLoader('public'),
              lazy: page(() => import(/* webpackChunkName: "page-login" */ './pages/Login.jsx')),
            },
            {
              path: '/recover',
              loader: guardLoader('public'),
              lazy: page(() => import(/* webpackChunkName: "page-recover" */ './pages/Recover.jsx')),
            },
            {
              path: '/verifycode',
              loader: guardLoader('verifyCode'),
              lazy: page(() => import(/* webpackChunkName: "page-verify" */ './pages/VerifyCode.jsx')),
            },
            {
              path: '/reset',
              loader: guardLoader('reset'),
              lazy: page(() => import(/* webpackChunkName: "page-reset" */ './pages/Reset.jsx')),
            },
            {
              loader: guardLoader('user'),
              element: <Shell area="user" />,
              children: [
                ...userRoutes(product).map(([path]) => ({ path: `/${path}`, ...userPages(product)[path] })),
                {
                  path: '/dashboardfaqs/:topic',
                  lazy: page(() => import(/* webpackChunkName: "page-faq-topic" */ './pages/FaqTopic.jsx')),
                },
              ],
            },
            {
              loader: guardLoader('admin'),
              element: <Shell area="admin" />,
              children: adminRoutes.map(([path]) => ({ path: `/${path}`, ...adminPages[path] })),
            },
            { path: '*', element: <NotFound /> },
          ],
        },
      ],
    },
  ];
}

export default function App({ settings }) {
  const router = useMemo(() => createBrowserRouter(routes(settings.product)), [settings.product]);
  return <RouterProvider router={router} />;
}
