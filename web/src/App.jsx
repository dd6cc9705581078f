// Every route of docs/product/screens.md#routes, each under its guard (decided by the core).
import { createBrowserRouter, RouterProvider } from 'react-router';
import { guardLoader, referralGate } from './shell/guards.js';
import Root from './common/Root.jsx';
import Shell from './shell/Shell.jsx';
import RouteError from './shell/RouteError.jsx';
import LandingRedirect from './shell/LandingRedirect.jsx';
import NotFound from './common/NotFound.jsx';
import { adminRoutes, landingPaths, page, publicRoutes, userRoutes } from './routes.js';

/** The loader of a public page's guard: the referral gate, a guard of the core's, or none. */
const publicGuard = (guard) => (guard === 'referral' ? referralGate : guard ? guardLoader(guard) : undefined);

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
            ...landingPaths.map((path) => ({ path: `/${path}`, element: <LandingRedirect /> })),
            ...publicRoutes.map(([path, guard, lazy]) => ({ path: `/${path}`, loader: publicGuard(guard), lazy })),
            {
              loader: guardLoader('user'),
              element: <Shell area="user" />,
              children: [
                ...userRoutes(product).map(([path, , lazy]) => ({ path: `/${path}`, lazy })),
                {
                  path: '/dashboardfaqs/:topic',
                  lazy: page(() => import(/* webpackChunkName: "page-faq-topic" */ './help/FaqTopic.jsx')),
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
