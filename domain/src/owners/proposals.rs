//! Owner actions as proposals to the owners' Safe. An admin proposes a change (node price,
//! staking terms, caps, signer, pause, sale and NFT prices, ownership): the server checks it is
//! an owner function (`lvlx_core::chain::owner_actions`), that the contract's owner is a Safe,
//! and that the call would succeed from the Safe now; it keeps the Safe transaction and its
//! EIP-712 hash. Owners sign that hash in their own wallets; the server keeps signatures that
//! recover to one of the Safe's owners (never a key). Once enough are there, anyone executes it
//! from a wallet, and the server records the execution from the transaction's receipt (the
//! Safe's `ExecutionSuccess` with this hash), not from the page's word.

use ethers_core::utils::keccak256;
use lvlx_core::chain::owner_actions::{self, Action};
use lvlx_core::chain::proposals::{self, Queue};
use lvlx_core::chain::safe::{self, SafeTx};
use lvlx_core::chain::{
    self as core_chain, decode_address, decode_addresses, decode_uint, hex0x, Contract,
};
use serde::Serialize;
use serde_json::{json, Value};

use crate::chain::reads::{blocking, calls_at};
use crate::chain::rpc::{quantity, Rpc, RpcError};
use crate::config;
use crate::error::Error;
use crate::store::owner_proposals::{self as kept, Proposal};
use crate::user::UserId;
use crate::{Config, Store};

/// Proposals the page lists, newest first.
const LISTED: i64 = 50;
/// The audit's subject for proposals, signatures and executions.
const AUDIT: &str = "owner-proposal";

/// The owners' Safe as the chain reads it now.
struct SafeNow {
    address: String,
    owners: Vec<String>,
    threshold: u64,
    nonce: u64,
}

/// `contract`'s address in this configuration.
fn target(chain: &config::Chain, contract: Contract) -> Result<String, Error> {
    chain
        .owned()
        .into_iter()
        .find(|(_, c)| *c == contract)
        .map(|(a, _)| a.to_string())
        .ok_or_else(|| Error::Malformed(format!("contract {} is not deployed", contract.name())))
}

fn latest(rpc: &Rpc) -> Result<u64, Error> {
    quantity(
        &rpc.call("eth_blockNumber", json!([]))
            .map_err(Error::unavailable)?,
    )
    .map_err(Error::unavailable)
}

/// The Safe that owns `target`; `OwnerStep` when its owner is not a Safe (an account signs for
/// itself there, outside this page).
fn safe_of(rpc: &Rpc, target: &str, contract: Contract) -> Result<SafeNow, Error> {
    let block = latest(rpc)?;
    let owner = calls_at(rpc, block, &[(target, contract, "owner", vec![])])?;
    let address = decode_address(&owner[0]).map_err(Error::unavailable)?;
    safe_at(rpc, block, address)
}

/// The Safe at `address` as of `block`; `OwnerStep` when it is no Safe.
fn safe_at(rpc: &Rpc, block: u64, address: String) -> Result<SafeNow, Error> {
    let answers = calls_at(
        rpc,
        block,
        &[
            (&address, Contract::Safe, "getThreshold", vec![]),
            (&address, Contract::Safe, "nonce", vec![]),
            (&address, Contract::Safe, "getOwners", vec![]),
        ],
    )?;
    let (Ok(threshold), Ok(nonce)) = (decode_uint(&answers[0]), decode_uint(&answers[1])) else {
        return Err(Error::OwnerStep);
    };
    let owners = decode_addresses(&answers[2]).map_err(|_| Error::OwnerStep)?;
    Ok(SafeNow {
        address,
        owners,
        threshold: threshold as u64,
        nonce: nonce as u64,
    })
}

/// Refuses a call that would revert from `from` now, with the contract's reason as a key.
fn simulate(rpc: &Rpc, from: &str, to: &str, data: &str) -> Result<(), Error> {
    match rpc.call(
        "eth_call",
        json!([{"from": from, "to": to, "data": data}, "latest"]),
    ) {
        Ok(_) => Ok(()),
        Err(RpcError::Node { data: Some(d), .. }) => Err(Error::Rule(core_chain::revert_key(
            d.as_str().unwrap_or_default(),
        ))),
        Err(RpcError::Node { .. }) => Err(Error::Rule("chain-reverted")),
        Err(e) => Err(Error::unavailable(e)),
    }
}

/// Proposes `contract.function(args…)` (arguments in base units, whole numbers, `true`/`false`
/// or addresses) to the Safe that owns the contract, at the Safe's next free nonce; audited.
/// Refused once the Safe has [`proposals::MAX_OPEN`] proposals waiting, except a pause: with the
/// queue full it takes the turn of the proposal at the head (as a rejection would), so no number
/// of waiting proposals keeps the owners from stopping a contract.
pub async fn propose(
    store: &Store,
    config: &Config,
    admin: UserId,
    contract: &str,
    function: &str,
    args: Vec<String>,
) -> Result<ProposalId, Error> {
    use core_chain::ChainError;
    let contract =
        Contract::parse(contract).ok_or_else(|| Error::Malformed("unknown contract".into()))?;
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let data = owner_actions::encode(contract, function, &refs).map_err(|e| match e {
        ChainError::Function(_) => Error::Malformed(format!("{function}: not an owner action")),
        ChainError::Arity { .. } | ChainError::Type(_) | ChainError::Data(_) => {
            Error::Malformed(e.to_string())
        }
        other => Error::Rule(other.key()),
    })?;
    let chain = crate::chain::network(config)?;
    let target = target(&chain, contract)?;
    let rpc = Rpc::new(chain.rpc_url.expose());
    let (safe, data, target) = blocking(move || {
        let safe = safe_of(&rpc, &target, contract)?;
        simulate(&rpc, &safe.address, &target, &data)?;
        Ok((safe, data, target))
    })
    .await?;
    let what = format!("{}.{}", contract.name(), function_of(contract, &data));
    let call = Call {
        contract: contract.name(),
        target,
        urgent: matches!(function_of(contract, &data), "pause" | "unpause"),
        data,
        nonce: None,
    };
    keep(
        store,
        admin,
        &chain,
        safe,
        call,
        json!({ "proposed": what }),
    )
    .await
}

/// Proposes to reject proposal `id`: an empty Safe transaction (to the Safe itself, no data)
/// at the same nonce, Safe's own way to use up a turn. Once executed, `id` is "replaced" and the
/// proposals behind it move up. The one for that nonce when it exists already.
pub async fn reject(
    store: &Store,
    config: &Config,
    admin: UserId,
    id: i64,
) -> Result<ProposalId, Error> {
    let p = stored(store, id).await?;
    if p.executed_tx.is_some() {
        return Err(Error::Rule("owner-proposal-executed"));
    }
    let chain = crate::chain::network(config)?;
    let rpc = Rpc::new(chain.rpc_url.expose());
    let address = p.safe.clone();
    let safe = blocking(move || safe_at(&rpc, latest(&rpc)?, address)).await?;
    if (p.nonce as u64) < safe.nonce {
        return Err(Error::Rule("owner-proposal-passed"));
    }
    let call = Call {
        contract: Contract::Safe.name(),
        target: safe.address.clone(),
        data: "0x".into(),
        nonce: Some(p.nonce),
        urgent: true,
    };
    keep(store, admin, &chain, safe, call, json!({ "rejects": id })).await
}

/// A call a proposal makes: on `target` (a `contract`), at `nonce` (the next free one if none).
/// An `urgent` one (a rejection, a pause) is never refused for a full queue: each is bounded
/// anyway (one rejection a nonce, one pause a contract at the head's turn).
struct Call {
    contract: &'static str,
    target: String,
    data: String,
    nonce: Option<i64>,
    urgent: bool,
}

/// Keeps the Safe transaction of `call` with its hash, audited with `what`: `{id}`. The same
/// transaction proposed again answers the kept one, whatever the queue holds.
async fn keep(
    store: &Store,
    admin: UserId,
    chain: &config::Chain,
    safe: SafeNow,
    call: Call,
    what: Value,
) -> Result<ProposalId, Error> {
    let chain_id = chain.chain_id;
    let now = crate::now_ms();
    let id = store
        .write(move |c| {
            c.transaction(|c| {
                let from = safe.nonce as i64;
                let count = |n: i64| u64::try_from(n).unwrap_or(0);
                let queue = Queue {
                    open: count(kept::open(c, &safe.address, from)?),
                    open_by_admin: count(kept::open_by(c, &safe.address, from, admin)?),
                };
                let nonce = queue.nonce(
                    call.nonce.map(count),
                    call.urgent,
                    safe.nonce,
                    count(kept::next_nonce(c, &safe.address, from)?),
                );
                let tx =
                    SafeTx::call(&call.target, &call.data, nonce).map_err(Error::unavailable)?;
                let safe_address =
                    core_chain::address(&safe.address).map_err(Error::unavailable)?;
                let hash = hex0x(&tx.hash(chain_id, safe_address));
                if let Some(id) = kept::by_hash(c, &hash)? {
                    return Ok(id);
                }
                queue.admit(call.urgent).map_err(Error::Rule)?;
                let id = kept::add(
                    c,
                    &kept::New {
                        contract: call.contract,
                        target: &call.target,
                        data: &call.data,
                        safe: &safe.address,
                        nonce: nonce as i64,
                        safe_tx_hash: &hash,
                        proposed_by: admin,
                        proposed_at: now,
                    },
                )?;
                let mut audited = what;
                audited["safeTxHash"] = json!(hash);
                audited["nonce"] = json!(nonce);
                crate::store::audit::append(c, AUDIT, Some(id), admin, now, None, &audited)?;
                Ok::<_, Error>(id)
            })
        })
        .await?;
    Ok(ProposalId { id })
}

fn function_of(contract: Contract, data: &str) -> &'static str {
    owner_actions::decode(contract, data).map_or("?", |(a, _)| a.function)
}

/// The newest proposals, each decoded for people: `{safe: {address, owners, threshold, nonce},
/// delaySeconds, proposals: [{id, contract, target, function, delayed, args: [{name, kind,
/// value, now}], state: {name, kind, value}|null, nonce, safeTxHash, typedData, signatures:
/// [signer], status, execCalldata|null, executedTx, proposedAt, executedAt}]}`. `status` is
/// "executed", "ready" (enough signatures, next in the Safe's order), "failing" (ready, but
/// its call would revert now: reject it), "queued" (enough, behind an earlier nonce),
/// "signing", or "replaced" (the Safe used its nonce for something else). A rejection's
/// function is "reject". Listed: the newest [`LISTED`] and every one still waiting its turn.
pub async fn list(store: &Store, config: &Config) -> Result<Proposals, Error> {
    let chain = crate::chain::network(config)?;
    let rpc = Rpc::new(chain.rpc_url.expose());
    let node = target(&chain, Contract::ActivationNode)?;
    // Every owned contract has the same owner after a deployment; the node's Safe is the one
    // the page shows (each proposal names its own).
    let read = rpc.clone();
    let safe = blocking(move || Ok(safe_of(&read, &node, Contract::ActivationNode).ok())).await?;
    let (address, from) = safe
        .as_ref()
        .map_or((String::new(), 0), |s| (s.address.clone(), s.nonce as i64));
    let proposals = store
        .read(move |c| {
            let proposals = kept::listed(c, LISTED, &address, from)?;
            proposals
                .into_iter()
                .map(|p| {
                    let signatures = kept::signatures(c, p.id)?;
                    Ok((p, signatures))
                })
                .collect::<Result<Vec<_>, crate::store::StoreError>>()
        })
        .await?;
    blocking(move || describe_all(&rpc, &chain, safe, proposals)).await
}

fn describe_all(
    rpc: &Rpc,
    chain: &config::Chain,
    safe: Option<SafeNow>,
    proposals: Vec<(Proposal, Vec<(String, String)>)>,
) -> Result<Proposals, Error> {
    let block = latest(rpc)?;
    let delay = calls_at(
        rpc,
        block,
        &[(
            chain.claim_distributor.as_str(),
            Contract::ClaimDistributor,
            "delay",
            vec![],
        )],
    )
    .ok()
    .and_then(|a| decode_uint(&a[0]).ok());
    let mut out = Vec::new();
    for (p, signatures) in proposals {
        out.push(describe(rpc, chain, block, &p, &signatures, safe.as_ref())?);
    }
    Ok(Proposals {
        safe: safe.map(|s| SafeShown {
            address: s.address,
            owners: s.owners,
            threshold: s.threshold,
            nonce: s.nonce,
        }),
        delay_seconds: delay.map(|d| d.to_string()),
        proposals: out,
    })
}

fn describe(
    rpc: &Rpc,
    chain: &config::Chain,
    block: u64,
    p: &Proposal,
    signatures: &[(String, String)],
    safe: Option<&SafeNow>,
) -> Result<OwnerProposal, Error> {
    let Called {
        function,
        delayed,
        args,
        state,
    } = action_of(rpc, block, p)?;
    let tx = SafeTx::call(&p.target, &p.data, p.nonce as u64).map_err(Error::unavailable)?;
    let safe_address = core_chain::address(&p.safe).map_err(Error::unavailable)?;
    let this_safe = safe.filter(|s| core_chain::same_address(&s.address, &p.safe));
    let threshold = this_safe.map_or(u64::MAX, |s| s.threshold);
    let safe_nonce = this_safe.map_or(0, |s| s.nonce);
    let mut status = proposals::status(
        p.executed_tx.is_some(),
        p.nonce as u64,
        safe_nonce,
        signatures.len() as u64,
        threshold,
    );
    let mut exec = None;
    if status == "ready" {
        let calldata = tx
            .exec_calldata(&decoded(signatures).map_err(Error::unavailable)?)
            .map_err(Error::unavailable)?;
        // The chain moved since it was proposed: executing it now would revert, and its turn
        // would block every proposal behind it until a rejection takes it.
        let runs = rpc
            .call(
                "eth_call",
                json!([{"to": p.safe, "data": calldata}, "latest"]),
            )
            .is_ok();
        if runs {
            exec = Some(calldata);
        } else {
            status = "failing";
        }
    }
    Ok(OwnerProposal {
        id: p.id,
        contract: p.contract.clone(),
        target: p.target.clone(),
        function,
        delayed,
        args,
        state,
        safe: p.safe.clone(),
        nonce: p.nonce,
        safe_tx_hash: p.safe_tx_hash.clone(),
        typed_data: tx.typed_data(chain.chain_id, safe_address),
        signatures: signatures.iter().map(|(s, _)| s.clone()).collect(),
        status,
        exec_calldata: exec,
        executed_tx: p.executed_tx.clone(),
        proposed_at: p.proposed_at,
        executed_at: p.executed_at,
    })
}

/// What a proposal calls, as the page shows it.
struct Called {
    function: &'static str,
    /// Executing it only announces a change the contract applies after its delay.
    delayed: bool,
    /// Each argument beside its value on chain.
    args: Vec<ArgShown>,
    /// The state it sets (pause, resume), beside today's.
    state: Option<StateShown>,
}

/// A proposed argument beside its value on chain now.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ArgShown {
    /// The Solidity argument's name.
    name: &'static str,
    kind: owner_actions::Kind,
    /// As proposed: base units, a whole number, true/false, an address or text.
    value: String,
    /// The current value on chain, in the same form; null where no getter answers it.
    now: Option<String>,
}

/// For an action without arguments: the state it changes (paused), now and as the action sets
/// it.
#[derive(Serialize, utoipa::ToSchema)]
pub struct StateShown {
    name: &'static str,
    kind: owner_actions::Kind,
    value: Option<String>,
    sets: Option<&'static str>,
}

/// A proposal to the owners' Safe, decoded for people.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OwnerProposal {
    id: i64,
    contract: String,
    #[schema(pattern = "^0x[0-9a-fA-F]{40}$")]
    target: String,
    function: &'static str,
    /// Executing only announces the change; it applies after the contract's delay.
    delayed: bool,
    args: Vec<ArgShown>,
    state: Option<StateShown>,
    #[schema(pattern = "^0x[0-9a-fA-F]{40}$")]
    safe: String,
    nonce: i64,
    #[schema(pattern = "^0x[0-9a-fA-F]*$")]
    safe_tx_hash: String,
    /// What eth_signTypedData_v4 takes (EIP-712 SafeTx).
    typed_data: Value,
    /// Owners who signed.
    signatures: Vec<String>,
    #[schema(value_type = String, pattern = "^(executed|ready|failing|queued|signing|replaced)$")]
    status: &'static str,
    /// execTransaction's calldata, once ready.
    exec_calldata: Option<String>,
    executed_tx: Option<String>,
    proposed_at: i64,
    executed_at: Option<i64>,
}

/// The owners' Safe now.
#[derive(Serialize, utoipa::ToSchema)]
pub struct SafeShown {
    #[schema(pattern = "^0x[0-9a-fA-F]{40}$")]
    address: String,
    owners: Vec<String>,
    threshold: u64,
    nonce: u64,
}

/// The owners' Safe, the distributor's delay, and the newest proposals.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Proposals {
    /// Null when the contracts' owner is not a Safe.
    safe: Option<SafeShown>,
    /// The claim distributor's delay; null when it does not answer.
    #[schema(pattern = "^[0-9]+$")]
    delay_seconds: Option<String>,
    proposals: Vec<OwnerProposal>,
}

/// The proposal an action made or named.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ProposalId {
    id: i64,
}

/// A signature was kept.
#[derive(Serialize, utoipa::ToSchema)]
pub struct Signed {
    id: i64,
    /// The owner who signed.
    #[schema(pattern = "^0x[0-9a-fA-F]{40}$")]
    signer: String,
}

/// What proposal `p` calls, its arguments read against the chain at `block`.
fn action_of(rpc: &Rpc, block: u64, p: &Proposal) -> Result<Called, Error> {
    let contract =
        Contract::parse(&p.contract).ok_or_else(|| Error::Internal(p.contract.clone()))?;
    // A rejection is the Safe calling itself with nothing: no owner action to decode.
    Ok(if contract == Contract::Safe && p.data == "0x" {
        Called {
            function: "reject",
            delayed: false,
            args: Vec::new(),
            state: None,
        }
    } else {
        let (action, values) =
            owner_actions::decode(contract, &p.data).map_err(Error::unavailable)?;
        let now = current(rpc, &p.target, contract, action, &values, block);
        let args = action
            .args
            .iter()
            .zip(values)
            .zip(now.args)
            .map(|((arg, value), now)| ArgShown {
                name: arg.name,
                kind: arg.kind,
                value,
                now,
            })
            .collect();
        let state = action.state.map(|(name, kind)| StateShown {
            name,
            kind,
            value: now.state,
            sets: action.sets(),
        });
        Called {
            function: action.function,
            delayed: action.delayed,
            args,
            state,
        }
    })
}

/// Stored signatures as (owner, bytes).
fn decoded(
    signatures: &[(String, String)],
) -> Result<Vec<(ethers_core::types::Address, Vec<u8>)>, core_chain::ChainError> {
    signatures
        .iter()
        .map(|(signer, signature)| {
            Ok((
                core_chain::address(signer)?,
                ethers_core::utils::hex::decode(signature.trim_start_matches("0x"))
                    .map_err(|e| core_chain::ChainError::Data(e.to_string()))?,
            ))
        })
        .collect()
}

/// Current values beside a proposal's arguments (null where no getter answers one).
struct Current {
    args: Vec<Option<String>>,
    state: Option<String>,
}

fn current(
    rpc: &Rpc,
    target: &str,
    contract: Contract,
    action: &Action,
    values: &[String],
    block: u64,
) -> Current {
    // Every getter the proposal needs, asked in one batch: (getter, keys, output) per argument
    // with one, then the action's state.
    let mut wanted: Vec<(&'static str, Vec<String>, usize)> = Vec::new();
    let mut slots = Vec::new();
    for arg in action.args {
        slots.push(arg.now.map(|now| {
            let keys = now.keys.iter().map(|&k| values[k].clone()).collect();
            wanted.push((now.getter, keys, now.output));
            wanted.len() - 1
        }));
    }
    let state_slot = action.state.map(|(getter, _)| {
        wanted.push((getter, vec![], 0));
        wanted.len() - 1
    });
    let calls: Vec<_> = wanted
        .iter()
        .map(|(getter, keys, _)| (target, contract, *getter, keys.clone()))
        .collect();
    let answers = if calls.is_empty() {
        Vec::new()
    } else {
        calls_at(rpc, block, &calls).unwrap_or_default()
    };
    let value = |slot: Option<usize>| -> Option<String> {
        let i = slot?;
        let (getter, _, output) = &wanted[i];
        owner_actions::now_value(contract, getter, *output, answers.get(i)?).ok()
    };
    Current {
        args: slots.into_iter().map(value).collect(),
        state: value(state_slot),
    }
}

/// Keeps an owner's signature of proposal `id`: it must recover, from the proposal's hash, to
/// one of the Safe's owners now. Audited.
pub async fn sign(
    store: &Store,
    config: &Config,
    admin: UserId,
    id: i64,
    signature: String,
) -> Result<Signed, Error> {
    let p = stored(store, id).await?;
    if p.executed_tx.is_some() {
        return Err(Error::Rule("owner-proposal-executed"));
    }
    let hash: [u8; 32] = ethers_core::utils::hex::decode(p.safe_tx_hash.trim_start_matches("0x"))
        .ok()
        .and_then(|h| h.try_into().ok())
        .ok_or_else(|| Error::Internal("stored hash".into()))?;
    let signer =
        safe::signer(hash, &signature).map_err(|_| Error::Rule("owner-proposal-not-owner"))?;
    let signer = ethers_core::utils::to_checksum(&signer, None);
    let chain = crate::chain::network(config)?;
    let rpc = Rpc::new(chain.rpc_url.expose());
    let address = p.safe.clone();
    let safe = blocking(move || safe_at(&rpc, latest(&rpc)?, address)).await?;
    let is_owner = safe
        .owners
        .iter()
        .any(|o| core_chain::same_address(o, &signer));
    if !is_owner {
        return Err(Error::Rule("owner-proposal-not-owner"));
    }
    let who = signer.clone();
    audited(
        store,
        admin,
        id,
        json!({ "signedBy": signer }),
        move |c, now| kept::sign(c, id, &who, &signature, now),
    )
    .await?;
    Ok(Signed { id, signer })
}

/// Records that transaction `tx` executed proposal `id`, once its receipt shows the Safe's
/// `ExecutionSuccess` for the proposal's hash. Audited.
pub async fn executed(
    store: &Store,
    config: &Config,
    admin: UserId,
    id: i64,
    tx: String,
) -> Result<ProposalId, Error> {
    let hash = tx.strip_prefix("0x").unwrap_or_default();
    if hash.len() != 64 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(Error::Malformed("tx: a transaction hash".into()));
    }
    let p = stored(store, id).await?;
    let chain = crate::chain::network(config)?;
    let rpc = Rpc::new(chain.rpc_url.expose());
    let (hash, safe, tx_hash) = (p.safe_tx_hash.clone(), p.safe.clone(), tx.clone());
    let ran = blocking(move || {
        let receipt = rpc
            .call("eth_getTransactionReceipt", json!([tx_hash]))
            .map_err(Error::unavailable)?;
        Ok(ran_in(&receipt, &safe, &hash))
    })
    .await?;
    if !ran {
        return Err(Error::Rule("owner-proposal-not-executed"));
    }
    audited(
        store,
        admin,
        id,
        json!({ "executedTx": tx }),
        move |c, now| kept::executed(c, id, &tx, now),
    )
    .await?;
    Ok(ProposalId { id })
}

/// Runs `change` on proposal `id` and, when it changed something, audits `what`: one
/// transaction.
async fn audited(
    store: &Store,
    admin: UserId,
    id: i64,
    what: Value,
    change: impl FnOnce(crate::store::Conn<'_>, i64) -> crate::store::Result<bool> + Send + 'static,
) -> Result<(), Error> {
    let now = crate::now_ms();
    store
        .write(move |c| {
            c.transaction(|c| {
                if change(c, now)? {
                    crate::store::audit::append(c, AUDIT, Some(id), admin, now, None, &what)?;
                }
                Ok::<_, Error>(())
            })
        })
        .await
}

/// The stored proposal `id`; `NotFound` when there is none.
async fn stored(store: &Store, id: i64) -> Result<Proposal, Error> {
    store
        .read(move |c| kept::get(c, id))
        .await?
        .ok_or(Error::NotFound)
}

/// Whether `receipt` (a mined, successful transaction) holds `safe`'s `ExecutionSuccess(hash)`.
fn ran_in(receipt: &Value, safe: &str, hash: &str) -> bool {
    let topic = hex0x(&keccak256("ExecutionSuccess(bytes32,uint256)"));
    receipt["status"] == "0x1"
        && receipt["logs"].as_array().is_some_and(|logs| {
            logs.iter().any(|log| {
                log["address"]
                    .as_str()
                    .is_some_and(|a| core_chain::same_address(a, safe))
                    && log["topics"][0].as_str() == Some(topic.as_str())
                    && log["topics"][1]
                        .as_str()
                        .is_some_and(|t| t.eq_ignore_ascii_case(hash))
            })
        })
}
