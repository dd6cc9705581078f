//! The contracts' owner is a Safe (safe-global 1.4.1, deployed as Safe built it): owner actions
//! are proposals the owners sign in their wallets (eth_signTypedData_v4, answered here by
//! anvil's own signer) and anyone executes at the threshold. The server keeps signatures, never
//! a key, and records an execution only from the Safe's own event.

use crate::common;

use common::anvil::Anvil;
use lvlx_backend::chain::deploy::{self, SafePlan};
use lvlx_backend::chain::owner::{self, Unlocked};
use lvlx_core::chain::safe::SafeTx;
use lvlx_core::chain::{self, Contract};
use lvlx_core::network::DEFAULT_NODE_PRICE;
use serde_json::{json, Value};
use warp::http::StatusCode;

const ADMIN: (&str, &str) = ("admin@lvlx.local", "Admin#2026");
const DEMO_USER: (&str, &str) = ("demo@lvlx.local", "Demo#2026x");

/// What the owner's wallet answers to eth_signTypedData_v4 for `typed` (anvil signs for its own
/// accounts as MetaMask does).
fn wallet_signs(anvil: &Anvil, account: &str, typed: &Value) -> String {
    anvil
        .rpc
        .call("eth_signTypedData_v4", json!([account, typed.to_string()]))
        .unwrap()
        .as_str()
        .unwrap()
        .to_string()
}

/// The platform deployed with a Safe of dev accounts 0, 1 and 2 that needs two of them (the
/// Safe raises its own threshold, sent by its first owner while one signature suffices).
fn two_of_three(anvil: &Anvil) -> (deploy::Deployment, String) {
    let accounts = anvil.accounts();
    let first = &accounts[0];
    let plan = deploy::Plan {
        safe: Some(SafePlan {
            owners: accounts[..3].to_vec(),
            threshold: 1,
        }),
        ..deploy::dev_plan(&anvil.rpc).unwrap()
    };
    let d = deploy::deploy(&anvil.rpc, &Unlocked(plan.owner.clone()), &plan, &|_| {}).unwrap();
    let safe = d.safe.clone().unwrap();
    let two = chain::calldata(Contract::Safe, "changeThreshold", &["2"]).unwrap();
    let by_first = lvlx_core::chain::safe::sent_by_owner(chain::address(first).unwrap());
    let exec = SafeTx::call(&safe, &two, 0)
        .unwrap()
        .exec_calldata(&[(chain::address(first).unwrap(), by_first)])
        .unwrap();
    owner::send(&anvil.rpc, first, Some(&safe), &exec).unwrap();
    assert_eq!(
        anvil.read_uint(&safe, Contract::Safe, "getThreshold", &[]),
        2
    );
    (d, safe)
}

#[tokio::test]
async fn owner_actions_are_safe_proposals_signed_by_the_owners_and_run_at_the_threshold() {
    let anvil = Anvil::start();
    let accounts = anvil.accounts();
    let (first, second, stranger) = (&accounts[0], &accounts[1], &accounts[5]);
    let (d, safe) = two_of_three(&anvil);
    for (address, contract) in deploy::dev_section(&anvil.url, &d).owned() {
        let owner = anvil.read(address, contract, "owner", &[]);
        assert_eq!(
            owner[0],
            ethers_core::abi::Token::Address(chain::address(&safe).unwrap()),
            "{} is the Safe's",
            contract.name()
        );
    }
    // The former owner account can change nothing itself any more.
    assert!(owner::transact(
        &anvil.rpc,
        first,
        &d.activation_node,
        Contract::ActivationNode,
        "setTerms",
        &["1", "true"]
    )
    .is_err());

    // The core's SafeTx hash is the Safe's own (getTransactionHash), the independent reference.
    // The Safe counted its acceptances of the six contracts and the threshold change.
    let nonce = anvil.read_uint(&safe, Contract::Safe, "nonce", &[]);
    assert_eq!(nonce, 7);
    let nonce_text = nonce.to_string();
    let data =
        chain::calldata(Contract::ActivationNode, "setTerms", &["75000000", "true"]).unwrap();
    let theirs = anvil.read(
        &safe,
        Contract::Safe,
        "getTransactionHash",
        &[
            &d.activation_node,
            "0",
            &data,
            "0",
            "0",
            "0",
            "0",
            ZERO,
            ZERO,
            &nonce_text,
        ],
    );
    let ours = SafeTx::call(&d.activation_node, &data, nonce as u64)
        .unwrap()
        .hash(lvlx_core::siwe::CHAIN_ID, chain::address(&safe).unwrap());
    assert_eq!(
        theirs[0],
        ethers_core::abi::Token::FixedBytes(ours.to_vec())
    );

    let admin = Admin::new(&anvil, &d).await;
    let w = &admin.w;
    let (member, _) = w.login(DEMO_USER.0, DEMO_USER.1).await;
    // Members cannot propose or read proposals.
    let node_price =
        json!({"contract": "ActivationNode", "function": "setTerms", "args": ["75000000", "true"]});
    let by_member = w
        .call(
            "POST",
            "/api/v1/owner-proposals",
            Some(&member),
            Some(node_price.clone()),
        )
        .await;
    assert_eq!(by_member.status, StatusCode::FORBIDDEN);
    let read_by_member = w
        .call("GET", "/api/v1/owner-proposals", Some(&member), None)
        .await;
    assert_eq!(read_by_member.status, StatusCode::FORBIDDEN);
    // No member function, no renouncing, no call that would revert from the Safe now.
    for (body, code) in [
        (
            json!({"contract": "IcoSale", "function": "buy", "args": ["1", "1", ZERO]}),
            "error-bad-request",
        ),
        (
            json!({"contract": "ClaimDistributor", "function": "renounceOwnership", "args": []}),
            "error-bad-request",
        ),
        (
            json!({"contract": "LvlxStaking", "function": "setTerms", "args": ["1", "1", "10001", "60"]}),
            "chain-reverted",
        ),
    ] {
        let refused = admin.post("", body.clone()).await;
        assert_eq!(
            refused.status,
            StatusCode::BAD_REQUEST,
            "{body}: {}",
            refused.body
        );
        if code != "chain-reverted" {
            assert_eq!(refused.body["code"], code, "{body}");
        } else {
            assert_ne!(
                refused.body["code"], "error-bad-request",
                "the contract's reason: {}",
                refused.body
            );
        }
    }

    // The admin proposes the node's new price (the admin page's PUT does the same).
    let put = w
        .call(
            "PUT",
            "/api/v1/activation-node",
            Some(&admin.token),
            Some(json!({"price": "75000000", "onSale": true})),
        )
        .await;
    assert_eq!(put.status, StatusCode::OK, "{}", put.body);
    let id = put.body["id"].as_i64().unwrap();
    let listed = admin.listed().await;
    assert_eq!(listed["safe"]["threshold"], 2);
    let p = listed["proposals"][0].clone();
    assert_eq!(p["id"], id);
    assert_eq!(p["function"], "setTerms");
    assert_eq!(p["status"], "signing");
    assert_eq!(
        p["args"][0],
        json!({"name": "price", "kind": "usdt", "value": "75000000", "now": DEFAULT_NODE_PRICE.to_string()})
    );
    assert_eq!(p["args"][1]["now"], "true");
    assert_eq!(
        p["safeTxHash"],
        chain::hex0x(&ours),
        "the hash the Safe computes: {p}"
    );
    assert!(p["execCalldata"].is_null());
    // A second proposal queues behind it (the Safe's next nonce).
    let queued = admin
        .post(
            "",
            json!({"contract": "IcoSale", "function": "pause", "args": []}),
        )
        .await;
    assert_eq!(queued.status, StatusCode::OK, "{}", queued.body);

    // A stranger's signature is refused; so is garbage; an owner's is kept once.
    let typed = &p["typedData"];
    let sign = |signature: String| {
        let admin = &admin;
        async move {
            admin
                .post(
                    &format!("/{id}/signatures"),
                    json!({ "signature": signature }),
                )
                .await
        }
    };
    let strange = sign(wallet_signs(&anvil, stranger, typed)).await;
    assert_eq!(strange.status, StatusCode::BAD_REQUEST);
    assert_eq!(strange.body["code"], "owner-proposal-not-owner");
    assert_eq!(
        sign("0x1234".into()).await.body["code"],
        "owner-proposal-not-owner"
    );
    let one = sign(wallet_signs(&anvil, first, typed)).await;
    assert_eq!(one.status, StatusCode::OK, "{}", one.body);
    assert!(chain::same_address(
        one.body["signer"].as_str().unwrap(),
        first
    ));
    assert_eq!(
        sign(wallet_signs(&anvil, first, typed)).await.status,
        StatusCode::OK
    );
    let listed = admin.listed().await;
    let p = &listed["proposals"][1];
    assert_eq!(p["signatures"].as_array().unwrap().len(), 1);
    assert_eq!(p["status"], "signing", "one of two is not enough");
    assert!(p["execCalldata"].is_null());

    // The second owner signs: ready, and anyone may execute it.
    sign(wallet_signs(&anvil, second, typed)).await;
    let listed = admin.listed().await;
    let p = &listed["proposals"][1];
    assert_eq!(p["status"], "ready");
    assert_eq!(listed["proposals"][0]["status"], "signing");
    let exec = p["execCalldata"].as_str().unwrap();
    let ran = owner::send(&anvil.rpc, stranger, Some(&safe), exec).unwrap();
    let price = anvil.read_uint(&d.activation_node, Contract::ActivationNode, "price", &[]);
    assert_eq!(price, 75_000_000);

    // Recorded from the receipt only: another transaction does not count.
    let record = |tx: &str| {
        let admin = &admin;
        let tx = tx.to_string();
        async move {
            admin
                .post(&format!("/{id}/executed"), json!({ "tx": tx }))
                .await
        }
    };
    let other = anvil.buy(&d, &accounts[3], 1_000_000, None);
    let wrong = record(&other).await;
    assert_eq!(wrong.body["code"], "owner-proposal-not-executed");
    let right = record(ran["transactionHash"].as_str().unwrap()).await;
    assert_eq!(right.status, StatusCode::OK, "{}", right.body);
    let listed = admin.listed().await;
    assert_eq!(listed["proposals"][1]["status"], "executed");
    assert_eq!(listed["proposals"][1]["args"][0]["now"], "75000000");
    assert_eq!(listed["safe"]["nonce"], nonce as u64 + 1);
    // The queued pause is now next in the Safe's order; signing an executed one is refused.
    assert_eq!(
        sign(wallet_signs(&anvil, first, typed)).await.body["code"],
        "owner-proposal-executed"
    );
    let audit = w
        .app
        .store
        .read(|c| lvlx_backend::store::audit::changes(c, "owner-proposal", 20))
        .await
        .unwrap();
    assert_eq!(
        audit.len(),
        5,
        "two proposals, two signatures, one execution: {audit:?}"
    );
}

const ZERO: &str = "0x0000000000000000000000000000000000000000";

#[tokio::test]
async fn a_contract_owned_by_an_account_is_no_proposal() {
    let anvil = Anvil::start();
    let d = deploy::deploy_dev(&anvil.rpc).unwrap();
    let w = common::world_with(|c| c.chain = Some(deploy::dev_section(&anvil.url, &d))).await;
    let (admin, _) = w.login(ADMIN.0, ADMIN.1).await;
    let refused = w
        .call(
            "PUT",
            "/api/v1/activation-node",
            Some(&admin),
            Some(json!({"price": "75000000", "onSale": true})),
        )
        .await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.body);
    assert_eq!(refused.body["code"], "error-owner-step");
}

/// An admin session on a world whose chain is `d`, and calls as that admin.
struct Admin {
    w: common::World,
    token: String,
}

impl Admin {
    async fn new(anvil: &Anvil, d: &deploy::Deployment) -> Admin {
        let w = common::world_with(|c| c.chain = Some(deploy::dev_section(&anvil.url, d))).await;
        let (token, _) = w.login(ADMIN.0, ADMIN.1).await;
        Admin { w, token }
    }

    async fn post(&self, path: &str, body: Value) -> common::Reply {
        self.post_as(&self.token, path, body).await
    }

    async fn post_as(&self, token: &str, path: &str, body: Value) -> common::Reply {
        self.w
            .call(
                "POST",
                &format!("/api/v1/owner-proposals{path}"),
                Some(token),
                Some(body),
            )
            .await
    }

    /// A second admin's session (one admin alone may hold at most ten waiting proposals).
    async fn second(&self) -> String {
        let (email, password) = ("second.admin@lvlx.local", "Second#2026x");
        lvlx_backend::cli::accounts::create(
            &self.w.app.store,
            email,
            "Second",
            "Admin",
            password,
            lvlx_core::ADMIN_ROLE,
            None,
        )
        .await
        .unwrap();
        self.w.login(email, password).await.0
    }

    async fn listed(&self) -> Value {
        let listed = self
            .w
            .call("GET", "/api/v1/owner-proposals", Some(&self.token), None)
            .await;
        assert_eq!(listed.status, StatusCode::OK, "{}", listed.body);
        listed.body
    }

    /// The listed proposal `id`.
    async fn proposal(&self, id: i64) -> Value {
        let listed = self.listed().await;
        listed["proposals"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == id)
            .unwrap_or_else(|| panic!("proposal {id} is listed: {listed}"))
            .clone()
    }

    async fn propose(&self, contract: &str, function: &str, args: &[&str]) -> i64 {
        let made = self
            .post(
                "",
                json!({"contract": contract, "function": function, "args": args}),
            )
            .await;
        assert_eq!(made.status, StatusCode::OK, "{}", made.body);
        made.body["id"].as_i64().unwrap()
    }

    /// Proposal `id` signed by the Safe's first two owners.
    async fn signed(&self, anvil: &Anvil, id: i64) {
        let typed = self.proposal(id).await["typedData"].clone();
        for owner in &anvil.accounts()[..2] {
            let kept = self
                .post(
                    &format!("/{id}/signatures"),
                    json!({"signature": wallet_signs(anvil, owner, &typed)}),
                )
                .await;
            assert_eq!(kept.status, StatusCode::OK, "{}", kept.body);
        }
    }

    /// Executes the ready proposal `id` from a stranger's account and records it.
    async fn executed(&self, anvil: &Anvil, id: i64) {
        let p = self.proposal(id).await;
        assert_eq!(p["status"], "ready", "{p}");
        let exec = p["execCalldata"].as_str().unwrap();
        let ran = owner::send(&anvil.rpc, &anvil.accounts()[5], p["safe"].as_str(), exec).unwrap();
        let tx = ran["transactionHash"].as_str().unwrap();
        let recorded = self
            .post(&format!("/{id}/executed"), json!({ "tx": tx }))
            .await;
        assert_eq!(recorded.status, StatusCode::OK, "{}", recorded.body);
    }
}

#[tokio::test]
async fn a_proposal_that_would_fail_says_so_and_a_rejection_frees_its_turn() {
    let anvil = Anvil::start();
    let (d, _) = two_of_three(&anvil);
    let admin = Admin::new(&anvil, &d).await;
    // Two pauses (a double click, or two admins): the second takes the next turn.
    let pause = admin.propose("IcoSale", "pause", &[]).await;
    let again = admin.propose("IcoSale", "pause", &[]).await;
    admin.signed(&anvil, pause).await;
    admin.executed(&anvil, pause).await;
    let unpause = admin.propose("IcoSale", "unpause", &[]).await;
    // The second pause, signed, would revert now (the sale is paused): said so, never offered
    // for execution; the unpause behind it waits.
    admin.signed(&anvil, again).await;
    let stuck = admin.proposal(again).await;
    assert_eq!(stuck["status"], "failing", "{stuck}");
    assert_eq!(
        stuck["state"],
        json!({"name": "paused", "kind": "bool", "value": "true", "sets": "true"})
    );
    assert!(stuck["execCalldata"].is_null());
    admin.signed(&anvil, unpause).await;
    assert_eq!(admin.proposal(unpause).await["status"], "queued");
    // A rejection at its nonce (asked twice: one proposal), signed and executed, uses the turn.
    let rejection = admin
        .post(&format!("/{again}/rejection"), json!(null))
        .await;
    assert_eq!(rejection.status, StatusCode::OK, "{}", rejection.body);
    let reject = rejection.body["id"].as_i64().unwrap();
    let twice = admin
        .post(&format!("/{again}/rejection"), json!(null))
        .await;
    assert_eq!(twice.body["id"], reject);
    let shown = admin.proposal(reject).await;
    assert_eq!(shown["function"], "reject");
    assert_eq!(shown["nonce"], stuck["nonce"]);
    admin.signed(&anvil, reject).await;
    admin.executed(&anvil, reject).await;
    assert_eq!(admin.proposal(again).await["status"], "replaced");
    admin.executed(&anvil, unpause).await;
    let paused = anvil.read(&d.ico_sale, Contract::IcoSale, "paused", &[]);
    assert_eq!(paused[0], ethers_core::abi::Token::Bool(false));
    // A rejection of a proposal whose turn passed is refused.
    let late = admin
        .post(&format!("/{again}/rejection"), json!(null))
        .await;
    assert_eq!(late.body["code"], "owner-proposal-passed");
}

#[tokio::test]
async fn the_queue_is_capped_and_every_waiting_proposal_stays_listed() {
    let anvil = Anvil::start();
    let (d, _) = two_of_three(&anvil);
    let admin = Admin::new(&anvil, &d).await;
    let second = admin.second().await;
    let first = admin.propose("IcoSale", "setPrice", &["100000"]).await;
    let price = |made: i32| json!({"contract": "IcoSale", "function": "setPrice", "args": [(100_001 + made).to_string()]});
    // One admin alone holds at most ten: one admin cannot jam the owners' queue.
    let mut made = 1;
    let alone = loop {
        let next = admin.post("", price(made)).await;
        if next.status != StatusCode::OK {
            break next;
        }
        made += 1;
    };
    assert_eq!(made, 10, "one admin's at most");
    assert_eq!(alone.body["code"], "owner-proposal-admin-full");
    let refused = loop {
        let next = admin.post_as(&second, "", price(made)).await;
        if next.status != StatusCode::OK {
            break next;
        }
        made += 1;
    };
    assert_eq!(made, 20, "at most 20 wait");
    assert_eq!(refused.body["code"], "owner-proposal-queue-full");
    // Exactly what is proposed is shown: 0.100001 USDT, not a rounded 0.10.
    let price = admin.proposal(first + 1).await;
    assert_eq!(price["args"][0]["value"], "100002");
    // An argument count the function does not take is the caller's mistake, said as such.
    let arity = admin
        .post(
            "",
            json!({"contract": "IcoSale", "function": "pause", "args": ["1"]}),
        )
        .await;
    assert_eq!(arity.body["code"], "error-bad-request");
    let listed = admin.listed().await;
    assert!(listed["proposals"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["id"] == first));
}

/// One admin filled the queue behind a failing head (a second pause, then 19 prices): the
/// rejection of the head and a pause of the distributor were refused as "queue full", so the
/// owners could do nothing from the platform. Now both are accepted: the rejection at the
/// head's turn (asked again: the same one), the pause at the head's turn too, once a contract;
/// executed, the pause takes effect and the head is replaced. Other proposals stay refused.
#[tokio::test]
async fn a_full_queue_behind_a_failing_head_still_takes_a_rejection_and_a_pause() {
    let anvil = Anvil::start();
    let (d, _) = two_of_three(&anvil);
    let admin = Admin::new(&anvil, &d).await;
    // Owners sign what the page shows: a typo'd checksum, hidden text and an endless URI are
    // refused before anything is kept.
    for (function, args, code) in [
        (
            "transferOwnership",
            json!(["0xF39fd6e51aad88F6F4ce6aB8827279cffFb92266"]),
            "validations-wallet-checksum-msg",
        ),
        (
            "setURI",
            json!(["1", "ipfs://good/{id}.json\u{202e}\u{0}nosj.live/"]),
            "validations-owner-text-msg",
        ),
        (
            "setURI",
            json!(["1", "ipfs://".to_string() + &"a".repeat(15_000)]),
            "validations-owner-text-msg",
        ),
    ] {
        let contract = if function == "setURI" {
            "LevelNFT"
        } else {
            "NftSale"
        };
        let refused = admin
            .post(
                "",
                json!({"contract": contract, "function": function, "args": args}),
            )
            .await;
        assert_eq!(refused.body["code"], code, "{function}: {}", refused.body);
    }
    let pause = admin.propose("NftSale", "pause", &[]).await;
    let head = admin.propose("NftSale", "pause", &[]).await;
    admin.signed(&anvil, pause).await;
    admin.executed(&anvil, pause).await;
    let second = admin.second().await;
    for i in 0..19 {
        let body = json!({"contract": "IcoSale", "function": "setPrice", "args": [(100_000 + i).to_string()]});
        let token = if i < 9 { &admin.token } else { &second };
        let made = admin.post_as(token, "", body).await;
        assert_eq!(made.status, StatusCode::OK, "{}", made.body);
    }
    admin.signed(&anvil, head).await;
    assert_eq!(admin.proposal(head).await["status"], "failing");
    let full = admin
        .post(
            "",
            json!({"contract": "IcoSale", "function": "setPrice", "args": ["99"]}),
        )
        .await;
    assert_eq!(full.body["code"], "owner-proposal-queue-full");
    let rejection = admin.post(&format!("/{head}/rejection"), json!(null)).await;
    assert_eq!(rejection.status, StatusCode::OK, "{}", rejection.body);
    let again = admin.post(&format!("/{head}/rejection"), json!(null)).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.body);
    assert_eq!(again.body["id"], rejection.body["id"]);
    let stop = || {
        admin.post(
            "",
            json!({"contract": "ClaimDistributor", "function": "pause", "args": []}),
        )
    };
    let emergency = stop().await;
    assert_eq!(emergency.status, StatusCode::OK, "{}", emergency.body);
    let emergency = emergency.body["id"].as_i64().unwrap();
    assert_eq!(stop().await.body["id"], emergency, "one pause a contract");
    let shown = admin.proposal(emergency).await;
    assert_eq!(shown["nonce"], admin.proposal(head).await["nonce"]);
    admin.signed(&anvil, emergency).await;
    admin.executed(&anvil, emergency).await;
    let paused = anvil.read(
        &d.claim_distributor,
        Contract::ClaimDistributor,
        "paused",
        &[],
    );
    assert_eq!(paused[0], ethers_core::abi::Token::Bool(true));
    assert_eq!(admin.proposal(head).await["status"], "replaced");
}
