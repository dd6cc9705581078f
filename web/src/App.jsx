// Every route of SPEC §2, each under the guard SPEC §2 gives it (decided by the core).
import { createBrowserRouter, RouterProvider } from 'react-router';
import { guardLoader, referralGate } from './session/guards.js';
import Root from './components/Root.jsx';
import Shell from './components/Shell.jsx';
import RouteError from './pages/RouteError.jsx';
import LandingRedirect from './pages/LandingRedirect.jsx';
import NotFound from './pages/NotFound.jsx';
import { adminRoutes, page, userRoutes } from './routes.js';

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
              // Anyone, signed in or not: no guard.
              path: '/solvency',
              lazy: page(() => import(/* webpackChunkName: "page-solvency" */ './pages/Solvency.jsx')),
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
                ...userRoutes(product).map(([path, , lazy]) => ({ path: `/${path}`, lazy })),
                {
                  path: '/dashboardfaqs/:topic',
                  lazy: page(() => import(/* webpackChunkName: "page-faq-topic" */ './pages/FaqTopic.jsx')),
                },
              ],
            },
            {
              loader: guardLoader('admin'),
              element: <Shell area="admin" />,
              children: adminRoutes.map(([path, , lazy]) => ({ path: `/${path}`, lazy })),
            },
            { path: '*', element: <NotFound /> },
          ],
        },
      ],
    },
  ];
}

/** The router, with the first page's loader and code already on their way. */
export const createRouter = (product) => createBrowserRouter(routes(product));

/** Once the first page's loader and code are in (a rendered page is replaced by the real one). */
export const routerReady = (router) =>
  new Promise((resolve) => {
    if (router.state.initialized) return resolve();
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });

export default function App({ router }) {
  return <RouterProvider router={router} />;
}
