//! Images that servers before schema 15 wrote into `data_dir/avatars` and `data_dir/content`:
//! imported into the database once at start (`store::uploads`), their folder then renamed
//! `….imported` so the import does not run again and the files can be deleted at leisure.

use std::path::Path;

use crate::store::{uploads, Store, StoreError};

/// The folders of the data folder that held uploads, as the stored names' prefixes.
const FOLDERS: &[&str] = &["avatars", "content"];

/// Imports every PNG of the old folders that the database does not hold yet. Returns how
/// many were imported.
pub async fn import_folders(store: &Store, data_dir: &Path) -> Result<usize, StoreError> {
    let mut imported = 0;
    for folder in FOLDERS {
        let dir = data_dir.join(folder);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut files = Vec::new();
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            // Half-written uploads (".part") never were images.
            if name.ends_with(".png") {
                let body = std::fs::read(entry.path())
                    .map_err(|e| StoreError::Task(format!("{}: {e}", entry.path().display())))?;
                files.push((format!("{folder}/{name}"), body));
            }
        }
        let now = crate::now_ms();
        imported += store
            .write(move |c| {
                c.transaction(|tx| {
                    let mut n = 0;
                    for (name, body) in &files {
                        n += usize::from(uploads::put_new(tx, name, body, now)?);
                    }
                    Ok::<_, StoreError>(n)
                })
            })
            .await?;
        let done = data_dir.join(format!("{folder}.imported"));
        std::fs::rename(&dir, &done)
            .map_err(|e| StoreError::Task(format!("{}: {e}", dir.display())))?;
    }
    Ok(imported)
}
