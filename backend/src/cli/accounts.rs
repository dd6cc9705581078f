//! Accounts made from the command line: `lvlx admin create` and the demo's fixtures
//! (`lvlx demo`: a demo admin, a demo member and a sealed demo key, each created once).

use lvlx_core::validation::{self, Field};

use crate::error::Error;
use crate::store::{users, Store};
use crate::user::{NewUser, User, UserId};
use crate::{crypto, now_ms};

pub use lvlx_tools::demo::{DEMO_ADMIN, DEMO_SECRET, DEMO_USER};

/// Creates an account after the same checks as the web forms.
pub async fn create(
    store: &Store,
    email: &str,
    names: &str,
    lastnames: &str,
    password: &str,
    role: &str,
    referrer: Option<UserId>,
) -> Result<UserId, Error> {
    validation::validate(Field::Email, email, None)?;
    validation::validate(Field::Names, names, None)?;
    validation::validate(Field::Lastnames, lastnames, None)?;
    validation::validate(Field::Password, password, None)?;
    let hash = crate::password::Passwords::new()
        .hash(password.to_string())
        .await?;
    let (email, names, lastnames, role) = (
        email.to_string(),
        names.to_string(),
        lastnames.to_string(),
        role.to_string(),
    );
    store
        .write(move |c| {
            let new = NewUser {
                email: &email,
                names: &names,
                lastnames: &lastnames,
                phone: "",
                role: &role,
                language: lvlx_core::DEFAULT_LANGUAGE,
                password_hash: &hash,
                referrer,
            };
            c.transaction(|tx| {
                let id = users::insert(tx, &new, &crypto::random_hex(16), now_ms())?
                    .ok_or(Error::EmailTaken)?;
                // A new admin is an admin change: in the chained audit, by the account itself
                // (the command line has no signed-in admin).
                if role == lvlx_core::ADMIN_ROLE {
                    crate::store::audit::append(
                        tx,
                        "admin-created",
                        Some(id.0),
                        id,
                        now_ms(),
                        None,
                        &serde_json::json!({"email": email, "by": "lvlx admin create"}),
                    )?;
                }
                Ok(id)
            })
        })
        .await
}

pub(crate) async fn find(store: &Store, email: &'static str) -> Result<Option<User>, Error> {
    Ok(store.read(move |c| users::by_email(c, email)).await?)
}

/// The demo admin and a demo user referred by the admin, each created once. Returns their
/// referral codes (admin, user).
pub async fn demo(store: &Store) -> Result<(String, String), Error> {
    let admin = match find(store, DEMO_ADMIN.0).await? {
        Some(u) => u.id,
        None => {
            let (email, password) = DEMO_ADMIN;
            create(
                store,
                email,
                "Ada",
                "Admin",
                password,
                lvlx_core::ADMIN_ROLE,
                None,
            )
            .await?
        }
    };
    if find(store, DEMO_USER.0).await?.is_none() {
        let (email, password) = DEMO_USER;
        let role = lvlx_core::MEMBER_ROLE;
        create(store, email, "Dana", "Demo", password, role, Some(admin)).await?;
    }
    store
        .write(|c| {
            if !crate::store::secrets::any(c)? {
                crate::secret::provision(c, DEMO_SECRET.0, DEMO_SECRET.1)?;
            }
            Ok::<_, Error>(())
        })
        .await?;
    let code = |u: Option<User>| {
        u.map(|u| u.referral_code)
            .ok_or_else(|| Error::Internal("demo account missing".into()))
    };
    Ok((
        code(find(store, DEMO_ADMIN.0).await?)?,
        code(find(store, DEMO_USER.0).await?)?,
    ))
}

/// The demo's sample of the admins' content: the private-protocol page in every language where
/// none is written yet, its words from the translations (`demo-private-protocol-*`), so the
/// Vanguard page of a demo is not empty. An admin replaces it under Edit content.
pub async fn demo_content(
    store: &Store,
    admin: UserId,
    texts: &std::collections::HashMap<String, std::collections::HashMap<String, String>>,
) -> Result<(), Error> {
    use crate::store::content;
    let block = "private-protocol";
    for language in lvlx_core::LANGUAGES {
        let table = texts
            .get(language)
            .ok_or_else(|| Error::Internal(format!("no translations for {language}")))?;
        let text = |key: &str| table.get(key).cloned().unwrap_or_default();
        let (title, description) = (
            text("demo-private-protocol-title"),
            text("demo-private-protocol-text"),
        );
        store
            .write(move |c| {
                if content::first_of(c, block, &[language])?.is_some_and(|b| b.language == language)
                {
                    return Ok(());
                }
                content::write_text(
                    c,
                    &content::Edit {
                        block,
                        language,
                        title: &title,
                        description: &description,
                        clear_image: false,
                        by: admin,
                        at: now_ms(),
                    },
                )
                .map_err(Error::from)
            })
            .await?;
    }
    Ok(())
}
