//! Account administration from the command line: `lvlx admin create` and `lvlx demo`.

use lvlx_core::validation::{self, Field};

use crate::user::{self, NewUser, User, UserId};
use crate::{now_ms, Db};

fn checked(field: Field, value: &str) -> Result<(), String> {
    validation::validate(field, value, None).map_err(|e| format!("{field:?}: {}", e.key()))
}

/// Creates an account after the same checks as the web forms.
pub async fn create(
    db: &Db,
    email: &str,
    names: &str,
    lastnames: &str,
    password: &str,
    role: &str,
    referrer: Option<UserId>,
) -> Result<UserId, String> {
    checked(Field::Email, email)?;
    checked(Field::Names, names)?;
    checked(Field::Lastnames, lastnames)?;
    checked(Field::Password, password)?;
    let hash = crate::password::Passwords::new()
        .hash(password.to_string())
        .await
        .map_err(|e| e.to_string())?;
    let (email, names, lastnames, role) = (
        email.to_string(),
        names.to_string(),
        lastnames.to_string(),
        role.to_string(),
    );
    db.run(move |c| {
        user::insert(
            c,
            &NewUser {
                email: &email,
                names: &names,
                lastnames: &lastnames,
                phone: "",
                role: &role,
                language: "en",
                password_hash: &hash,
                referrer,
            },
            now_ms(),
        )
    })
    .await
    .map_err(|e| e.to_string())
}

pub const DEMO_ADMIN: (&str, &str) = ("admin@lvlx.local", "Admin#2026");
pub const DEMO_USER: (&str, &str) = ("demo@lvlx.local", "Demo#2026x");
/// The demo's admin secret and the operational key it unlocks (anvil's first development
/// account: public, holds nothing outside a local chain).
pub const DEMO_SECRET: (&str, &str) = (
    "demo-admin-secret",
    "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
);

async fn find(db: &Db, email: &'static str) -> Result<Option<User>, String> {
    db.run(move |c| user::by_email(c, email))
        .await
        .map_err(|e| e.to_string())
}

/// The demo admin and a demo user referred by the admin, each created once. Returns their
/// referral codes (admin, user).
pub async fn demo(db: &Db) -> Result<(String, String), String> {
    let admin = match find(db, DEMO_ADMIN.0).await? {
        Some(u) => u.id,
        None => {
            create(
                db,
                DEMO_ADMIN.0,
                "Ada",
                "Admin",
                DEMO_ADMIN.1,
                lvlx_core::ADMIN_ROLE,
                None,
            )
            .await?
        }
    };
    if find(db, DEMO_USER.0).await?.is_none() {
        create(
            db,
            DEMO_USER.0,
            "Dana",
            "Demo",
            DEMO_USER.1,
            "1",
            Some(admin),
        )
        .await?;
    }
    db.run(|c| {
        let sealed: i64 = c.query_row("SELECT COUNT(*) FROM sealed_secrets", [], |r| r.get(0))?;
        if sealed == 0 {
            crate::secret::provision(c, DEMO_SECRET.0, DEMO_SECRET.1)?;
        }
        Ok(())
    })
    .await
    .map_err(|e| e.to_string())?;
    let code = |u: Option<User>| {
        u.map(|u| u.referral_code)
            .ok_or("demo account missing".to_string())
    };
    Ok((
        code(find(db, DEMO_ADMIN.0).await?)?,
        code(find(db, DEMO_USER.0).await?)?,
    ))
}
