//! What the indexer does when the chain changes under it (docs/product/chain.md#rollback): events
//! become final and count (commissions, volume, ranks), or their blocks leave the chain and
//! everything recorded from them is taken back, newest first, in the caller's transaction, each
//! member concerned told by a push and a line in their history.

use std::collections::BTreeMap;

use lvlx_store::reversals::{self, Reversal};
use lvlx_store::user::UserId;
use lvlx_store::{blocks, ledger, stakes, Conn, StoreError};

use crate::{Consumer, Push};

/// Settles the linked members' purchases in blocks `after < block <= upto`: they just became
/// final. Oldest first, as they happened. The owners of positions opened there are told too.
pub fn finalize(
    tx: Conn,
    consumer: &dyn Consumer,
    product: &str,
    levels_bps: &[u32],
    after: u64,
    upto: u64,
    now: i64,
) -> Result<Vec<Push>, StoreError> {
    let mut pushes = Vec::new();
    for (id, buyer, tx_hash) in lvlx_store::settlement::unsettled_between(tx, product, after, upto)?
    {
        pushes.extend(consumer.purchase_final(tx, product, levels_bps, id, now)?);
        pushes.push(Push::Chain {
            user: Some(buyer),
            event: "final",
            tx_hash,
        });
    }
    for (owner, tx_hash) in stakes::opened_between(tx, after, upto)? {
        pushes.push(Push::Chain {
            user: Some(owner),
            event: "final",
            tx_hash,
        });
    }
    Ok(pushes)
}

/// Who a reversal concerns and what it says: `event` is the name its push carries, and its words
/// in the member's history are `reversal-<event>`.
pub struct Taken {
    pub user: Option<UserId>,
    pub event: &'static str,
    pub tx_hash: String,
    pub amount: Option<String>,
    pub block: i64,
}

/// What a rollback did: the pushes it made, and the events it took back that had been final
/// (at or below the final block before it), each with its member.
pub struct TakenBack {
    pub pushes: Vec<Push>,
    pub final_ones: Vec<(Option<UserId>, String, String)>,
}

/// Takes back everything recorded from blocks above `ancestor` (the last block both the chain
/// and the store agree on): purchases with their settlement, the applied events (staking,
/// NFT sale, price), the network's events (activation nodes and distributor payments, through the
/// consumer); then every upline member's ranks are checked
/// against the volume that remains. `nft_staking` is the NFT pool's lowercase address (any
/// other staking contract is the LVLX pool). An event at or below `final_block` had been shown
/// final: its line in the member's history says so.
pub fn rollback(
    tx: Conn,
    consumer: &dyn Consumer,
    product: &str,
    nft_staking: &str,
    ancestor: u64,
    final_block: u64,
    now: i64,
) -> Result<TakenBack, StoreError> {
    let mut taken: Vec<Taken> = Vec::new();
    let mut pushes = take_purchases(tx, consumer, product, ancestor, now, &mut taken)?;
    crate::applied::take_back(tx, nft_staking, ancestor, &mut taken)?;
    taken.extend(consumer.network_taken_back(tx, ancestor)?);
    blocks::forget_above(tx, ancestor)?;
    let mut final_ones = Vec::new();
    for t in taken {
        let was_final = t.block >= 0 && t.block as u64 <= final_block;
        if was_final {
            final_ones.push((t.user, t.event.to_string(), t.tx_hash.clone()));
        }
        reversals::add(
            tx,
            t.user,
            &Reversal {
                event: t.event.to_string(),
                tx_hash: t.tx_hash.clone(),
                amount: t.amount,
                block: t.block,
                at: now,
                was_final,
            },
        )?;
        pushes.push(Push::Chain {
            user: t.user,
            event: t.event,
            tx_hash: t.tx_hash,
        });
    }
    Ok(TakenBack { pushes, final_ones })
}

/// Takes back the purchases above `ancestor` with their commissions, then has the ranks of the
/// upline members whose volume fell checked again. The pushes that tell them.
fn take_purchases(
    tx: Conn,
    consumer: &dyn Consumer,
    product: &str,
    ancestor: u64,
    now: i64,
    taken: &mut Vec<Taken>,
) -> Result<Vec<Push>, StoreError> {
    // Upline members whose volume fell, with their volume after it.
    let mut fell: BTreeMap<UserId, lvlx_core::amount::Units> = BTreeMap::new();
    for entry in ledger::above(tx, ancestor)? {
        for (member, volume) in consumer.purchase_taken_back(tx, entry.id)? {
            fell.insert(member, volume);
        }
        ledger::remove(tx, product, &entry)?;
        taken.push(Taken {
            user: entry.user,
            event: crate::push::PURCHASE,
            tx_hash: entry.tx_hash,
            amount: Some(entry.amount.to_string()),
            block: entry.block,
        });
    }
    consumer.volume_fell(tx, &fell, ancestor, now)
}

#[cfg(test)]
mod tests {
    use lvlx_core::chain::AppliedEvent;

    use crate::push::{CLAIM, NODE, PURCHASE};

    /// Every name a reversal carries has its words in every locale (`reversal-<name>`, what the
    /// member's history says was taken back): each applied event's, and the others'.
    #[test]
    fn every_reversal_has_its_words() {
        let mut names: Vec<&str> = AppliedEvent::ALL.map(crate::push::applied).to_vec();
        names.extend([PURCHASE, NODE, CLAIM]);
        for lng in ["en", "es", "pt"] {
            let path = format!("{}/../locales/{lng}/{lng}.json", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).expect("the locale");
            let words: serde_json::Map<String, serde_json::Value> =
                serde_json::from_str(&text).expect("the locale's JSON");
            for name in &names {
                let key = format!("reversal-{name}");
                assert!(words.contains_key(&key), "{lng}: {key}");
            }
        }
    }
}
