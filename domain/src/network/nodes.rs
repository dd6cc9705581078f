//! The activation node: its terms read from the chain (shared per block), the admin's view of
//! the nodes sold, and the owner's steering of price and sale.

use lvlx_core::amount::Units;
use lvlx_core::chain::Contract;

use crate::chain::reads::{calls_at, Call};
use crate::chain::rpc::Rpc;
use crate::config;
use crate::error::Error;

/// The activation node's terms as the contract holds them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NodeTerms {
    /// USDT base units.
    pub price: Units,
    pub on_sale: bool,
    /// The latest block's time, seconds (vouchers' deadlines count from it).
    pub block_time: u64,
    /// The latest block's number (other reads of the same page share it).
    pub block: u64,
}

/// The node's price and sale flag and the latest block's time: the head read per call, the
/// terms shared by every call at that block (`chain::reads`).
pub async fn node_terms(
    config: &config::Config,
    reads: &crate::ChainReads,
) -> Result<NodeTerms, Error> {
    let chain = crate::chain::network(config)?;
    let rpc = Rpc::new(chain.rpc_url.expose());
    let (block, block_time) = crate::chain::reads::head(&rpc).await?;
    let (price, on_sale) = reads
        .node
        .get("node", block, move || read_node_terms(&rpc, &chain, block))
        .await?;
    Ok(NodeTerms {
        price,
        on_sale,
        block_time,
        block,
    })
}

/// The node's price and sale flag at `block`, in one batch (blocking).
fn read_node_terms(rpc: &Rpc, chain: &config::Chain, block: u64) -> Result<(Units, bool), Error> {
    let to = chain.activation_node.as_str();
    let calls: [Call; 2] = [
        (to, Contract::ActivationNode, "price", vec![]),
        (to, Contract::ActivationNode, "onSale", vec![]),
    ];
    let words = calls_at(rpc, block, &calls)?
        .iter()
        .map(|v| lvlx_core::chain::decode_uint(v).map_err(Error::unavailable))
        .collect::<Result<Vec<Units>, Error>>()?;
    match words[..] {
        [price, on_sale] => Ok((price, on_sale == 1)),
        _ => Err(Error::unavailable("short batch answer")),
    }
}

/// Changes to the node's terms the admin page lists.
const AUDIT_ROWS: i64 = 200;

/// The node's terms as the member and admin pages show them.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ShownTerms {
    /// USDT.
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    price: Units,
    on_sale: bool,
}

impl ShownTerms {
    pub(crate) fn of(t: &NodeTerms) -> Self {
        ShownTerms {
            price: t.price,
            on_sale: t.on_sale,
        }
    }
}

/// The node's terms (None when the chain does not answer).
pub async fn shown_terms(config: &config::Config, reads: &crate::ChainReads) -> Option<ShownTerms> {
    node_terms(config, reads)
        .await
        .ok()
        .map(|t| ShownTerms::of(&t))
}

/// Every node sold (member, wallet, date, USDT paid, transaction) in activation order, as the
/// Arrow stream the core's table engine loads.
pub async fn rows(store: &crate::Store) -> Result<Vec<u8>, Error> {
    let rows = store.read(crate::store::nodes::all).await?;
    lvlx_core::admin::nodes::encode(&rows).map_err(|e| Error::Internal(e.to_string()))
}

/// The admin's page: the terms (null when the chain does not answer) and the newest changes.
pub async fn admin_view(
    store: &crate::Store,
    config: &config::Config,
    reads: &crate::ChainReads,
) -> Result<NodeAdmin, Error> {
    let terms = shown_terms(config, reads).await;
    let audit = store
        .read(|c| crate::store::audit::changes(c, "activation-node", AUDIT_ROWS))
        .await?;
    Ok(NodeAdmin { audit, terms })
}

/// The admin's node page.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct NodeAdmin {
    /// The newest changes first.
    audit: Vec<crate::store::audit::Change>,
    /// Null when the chain does not answer.
    terms: Option<ShownTerms>,
}

/// Proposes the node's new terms to the owners' Safe (`crate::owners::proposals`): they take
/// effect once the owners signed and executed the proposal. `{id}` of the proposal.
pub async fn steer(
    store: &crate::Store,
    config: &config::Config,
    admin: crate::user::UserId,
    price: Units,
    on_sale: bool,
) -> Result<crate::owners::proposals::ProposalId, Error> {
    if price == 0 {
        return Err(Error::Malformed("price: above zero".into()));
    }
    crate::owners::proposals::propose(
        store,
        config,
        admin,
        Contract::ActivationNode.name(),
        "setTerms",
        vec![price.to_string(), on_sale.to_string()],
    )
    .await
}
