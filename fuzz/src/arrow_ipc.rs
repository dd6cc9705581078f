//! The admin tables' Arrow IPC reader (docs/product/admin.md#tables-at-scale): the browser loads
//! whatever stream it is given. Either raw bytes into every table, or a real users stream from
//! arbitrary rows with some of its bytes changed; then a query, a page and the CSV export. An
//! error, never a panic.

use arbitrary::{Arbitrary, Result, Unstructured};
use lvlx_core::admin::ico::IcoTable;
use lvlx_core::admin::nodes::NodeTable;
use lvlx_core::admin::stakes::{EntryTable, Kind, StakerTable};
use lvlx_core::admin::users::{self, User, UserTable};
use lvlx_core::admin::{Direction, Query, Sort};
use lvlx_core::kyc::KycStatus;

const COLUMNS: [&str; 6] = ["createdAt", "names", "email", "totalLVLX", "rank", "nope"];
const KYC: [KycStatus; 4] = [
    KycStatus::None,
    KycStatus::Pending,
    KycStatus::Approved,
    KycStatus::Rejected,
];

#[derive(Debug)]
enum Input {
    Raw(Vec<u8>),
    Users { stream: Vec<u8>, query: Query },
}

// A field added to `User` after these takes its default here, so a new column does not need
// this file (its bytes are still fuzzed through `Input::Raw`).
#[allow(clippy::needless_update)]
fn user(u: &mut Unstructured) -> Result<User> {
    Ok(User {
        created_at: u.arbitrary()?,
        names: u.arbitrary()?,
        email: u.arbitrary()?,
        wallet: u.arbitrary()?,
        referred: u.arbitrary()?,
        lvlx: u.arbitrary()?,
        rewards: u.arbitrary()?,
        rank: u.arbitrary()?,
        id: u.arbitrary()?,
        kyc: *u.choose(&KYC)?,
        blocked: u.arbitrary()?,
        ..User::default()
    })
}

fn query(u: &mut Unstructured) -> Result<Query> {
    let day = |u: &mut Unstructured| -> Result<Option<String>> {
        Ok(if u.arbitrary()? {
            Some(format!(
                "2026-{:02}-{:02}",
                u.int_in_range(0..=13)?,
                u.int_in_range(0..=32)?
            ))
        } else {
            None
        })
    };
    Ok(Query {
        start: day(u)?,
        end: day(u)?,
        offset_minutes: u.arbitrary()?,
        search: u.arbitrary()?,
        sort: if u.arbitrary()? {
            let direction = if u.arbitrary()? {
                Direction::Asc
            } else {
                Direction::Desc
            };
            Some(Sort {
                column: u.choose(&COLUMNS)?.to_string(),
                direction,
            })
        } else {
            None
        },
        kyc: if u.arbitrary()? {
            Some(u.arbitrary()?)
        } else {
            None
        },
    })
}

impl<'a> Arbitrary<'a> for Input {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Input> {
        if u.ratio(1, 4)? {
            return Ok(Input::Raw(u.arbitrary()?));
        }
        let rows: Vec<User> = (0..u.int_in_range(0..=12)?)
            .map(|_| user(u))
            .collect::<Result<_>>()?;
        let mut rows = rows;
        rows.sort_by_key(|r| r.created_at);
        // Amounts beyond the stream's decimal(38) are the encoder's error, not the reader's.
        let Ok(mut stream) = users::encode(&rows) else {
            return Ok(Input::Raw(u.arbitrary()?));
        };
        for _ in 0..u.int_in_range(0..=3)? {
            if stream.is_empty() {
                break;
            }
            let at = u.choose_index(stream.len())?;
            stream[at] ^= u8::arbitrary(u)?.max(1);
        }
        Ok(Input::Users {
            stream,
            query: query(u)?,
        })
    }
}

pub fn run(data: &[u8]) {
    crate::typed(data, |input: Input| match input {
        Input::Raw(bytes) => {
            let _ = UserTable::load(&bytes);
            let _ = NodeTable::load(&bytes);
            let _ = IcoTable::load(&bytes, "LVLX");
            let _ = EntryTable::load(&bytes, Kind::Nft, 0);
            let _ = StakerTable::load(&bytes, Kind::Lvlx, 0);
        }
        Input::Users { stream, query } => {
            if let Ok(mut table) = UserTable::load(&stream) {
                if table.query(&query).is_ok() {
                    let _ = table.page(0, 25);
                    let _ = table.csv();
                }
            }
        }
    });
}
