//! Accounts: registration through a referral link, sign-in with a mailed code, password
//! recovery, the linked wallet and what the member holds. Each function checks its input by the core's rules, owns its transaction and sends
//! its mail; the routes in `api` parse and reply.

pub mod avatars;
pub mod blocking;
pub mod holdings;
pub mod logins;
pub mod recovery;
pub mod registrations;
pub mod wallets;
