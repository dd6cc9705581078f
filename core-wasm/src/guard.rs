//! Route guards (docs/product/screens.md#route-guards): from what the browser has stored and the
//! time, decide whether a page shows or where the browser goes. The React router only carries out
//! the answer.

use serde::{Deserialize, Serialize};

use crate::session::{self, Claims};
use crate::ADMIN_ROLE;

pub const LOGIN: &str = "/login";
pub const DASHBOARD: &str = "/dashboard";
pub const VERIFY_CODE: &str = "/verifycode";
pub const ADMIN_HOME: &str = "/admin/tables/users";

/// Which of the five guards protects a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Kind {
    Admin,
    User,
    Public,
    VerifyCode,
    Reset,
}

/// The raw local-storage values the guards read (absent keys are `None`). The core parses them,
/// so JavaScript decides nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Stored {
    pub session_token: Option<String>,
    pub verify_code: Option<String>,
    pub user_token: Option<String>,
    pub reset_token: Option<String>,
    /// The stored adminInfo JSON: `{roleAdmin}` or `{user: {roleAdmin}}`.
    pub admin_info: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Action {
    Show,
    Redirect,
    /// Clear all local storage, then redirect.
    ClearAndRedirect,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    pub action: Action,
    /// Where to go; absent when the page shows.
    pub to: Option<String>,
}

impl Decision {
    fn show() -> Self {
        Decision {
            action: Action::Show,
            to: None,
        }
    }
    fn redirect(to: &str) -> Self {
        Decision {
            action: Action::Redirect,
            to: Some(to.to_string()),
        }
    }
    fn clear_and_redirect(to: &str) -> Self {
        Decision {
            action: Action::ClearAndRedirect,
            to: Some(to.to_string()),
        }
    }
}

/// The session as the guards see it.
enum Session {
    None,
    /// Expired, or not a token at all: either way it must go.
    Expired,
    Live(Claims),
}

fn session(stored: &Stored, now_ms: i64) -> Session {
    match present(&stored.session_token) {
        None => Session::None,
        Some(token) => match session::decode(token) {
            Some(claims) if !session::is_expired(&claims, now_ms) => Session::Live(claims),
            _ => Session::Expired,
        },
    }
}

/// A stored value that is empty or the literal text "null"/"undefined" (what a careless
/// `localStorage.setItem(k, undefined)` leaves) counts as absent.
fn present(value: &Option<String>) -> Option<&str> {
    value
        .as_deref()
        .filter(|v| !v.is_empty() && *v != "null" && *v != "undefined")
}

/// Admin = token role "1001" and stored admin role "1001" (docs/product/accounts.md#roles).
fn is_admin(claims: &Claims, stored: &Stored) -> bool {
    claims.role == ADMIN_ROLE && stored_admin_role(stored).as_deref() == Some(ADMIN_ROLE)
}

fn stored_admin_role(stored: &Stored) -> Option<String> {
    let info: serde_json::Value = serde_json::from_str(present(&stored.admin_info)?).ok()?;
    let role = info
        .get("roleAdmin")
        .or_else(|| info.get("user").and_then(|u| u.get("roleAdmin")))?;
    match role {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// Decides what happens on a page protected by `kind`.
pub fn decide(kind: Kind, stored: &Stored, now_ms: i64) -> Decision {
    match kind {
        Kind::Admin => match session(stored, now_ms) {
            Session::None => Decision::redirect(LOGIN),
            Session::Expired => Decision::clear_and_redirect(LOGIN),
            Session::Live(c) if is_admin(&c, stored) => Decision::show(),
            Session::Live(_) => Decision::redirect(DASHBOARD),
        },
        Kind::User => match session(stored, now_ms) {
            Session::None => Decision::redirect(LOGIN),
            Session::Expired => Decision::clear_and_redirect(LOGIN),
            Session::Live(c) if is_admin(&c, stored) => Decision::redirect(ADMIN_HOME),
            Session::Live(_) => Decision::show(),
        },
        Kind::Public => {
            if present(&stored.verify_code).is_some() {
                Decision::redirect(VERIFY_CODE)
            } else if present(&stored.session_token).is_none() {
                Decision::show()
            } else {
                // The user area clears an expired token on arrival.
                Decision::redirect(DASHBOARD)
            }
        }
        Kind::VerifyCode => match session(stored, now_ms) {
            // A marker left without a token would bounce between /login (public: marker →
            // /verifycode) and here (no token → /login) forever; it is stale, so clear it.
            Session::None if present(&stored.verify_code).is_some() => {
                Decision::clear_and_redirect(LOGIN)
            }
            Session::None => Decision::redirect(LOGIN),
            Session::Expired => Decision::clear_and_redirect(LOGIN),
            Session::Live(_) if present(&stored.verify_code).is_some() => Decision::show(),
            Session::Live(_) => Decision::redirect(LOGIN),
        },
        Kind::Reset => {
            if present(&stored.user_token).is_some() && present(&stored.reset_token).is_some() {
                Decision::show()
            } else {
                Decision::redirect(LOGIN)
            }
        }
    }
}
