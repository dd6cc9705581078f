//! The running totals each member's row keeps, against the rows that should explain them: the
//! rows read here, the comparison the core's (`lvlx_core::books`).

use lvlx_core::books::{self, Rows};

use crate::store::{ledger, nodes, ranks, settlement, users, Conn, Result, StoreError};

/// One line per total that its rows do not give: `member {id}|{field}|kept|{k}|rows|{r}|`.
pub fn differences(c: Conn, product: &str) -> Result<Vec<String>> {
    let rows = Rows {
        ledger: ledger::member_entries(c)?,
        settled: settlement::settled_all(c)?,
        commissions: settlement::commissions_all(c)?,
        bonuses: ranks::bonuses_all(c)?,
        node_holders: nodes::holders(c)?,
    };
    books::differences(&users::kept(c)?, &rows, product, &ranks::table(c)?)
        .map_err(StoreError::Corrupt)
}
