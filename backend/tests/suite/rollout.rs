//! Deploying to a real network (`lvlx chain deploy --keystore`), played on an anvil node with
//! Amoy's chain id 80002: a keystore's key signs (anvil, not this code, recovers who sent each
//! transaction), the dry run sends nothing and foretells the real run's gas, the existing USDT is
//! used, every contract waits for the Safe to accept it, and the explorer's verification input
//! matches what was sent.

use std::path::PathBuf;

use lvlx_backend::chain::deploy::Deployment;
use lvlx_backend::chain::owner;
use lvlx_backend::chain::rollout::{self, Network, Options, RolloutError};
use lvlx_backend::chain::rpc::quantity;
use lvlx_core::chain::Contract;
use serde_json::{json, Value};

use crate::common::anvil::{Anvil, ANVIL};

const PASSWORD: &str = "correct horse battery staple";
const USDT_BIN: &str = include_str!("../../../contracts/artifacts/MockUSDT.bin");

/// A fresh keystore file in `dir` and its address.
fn keystore(dir: &std::path::Path) -> (PathBuf, String) {
    let mut rng = rand::thread_rng();
    let (secret, _uuid) =
        eth_keystore::new(dir, &mut rng, PASSWORD, Some("deployer.json")).unwrap();
    let key = ethers_core::k256::ecdsa::SigningKey::from_slice(&secret).unwrap();
    let address = ethers_core::utils::secret_key_to_address(&key);
    (
        dir.join("deployer.json"),
        ethers_core::utils::to_checksum(&address, None),
    )
}

fn nonce(anvil: &Anvil, address: &str) -> u64 {
    quantity(
        &anvil
            .rpc
            .call("eth_getTransactionCount", json!([address, "latest"]))
            .unwrap(),
    )
    .unwrap()
}

fn code(anvil: &Anvil, address: &str) -> String {
    anvil
        .rpc
        .call("eth_getCode", json!([address, "latest"]))
        .unwrap()
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn a_keystore_deploys_to_amoy_after_a_dry_run_that_sent_nothing_and_foretold_the_gas() {
    let anvil = Anvil::start_on(80_002, 4);
    let accounts: Vec<String> = anvil
        .accounts()
        .iter()
        .map(|a| lvlx_core::siwe::checksummed(a).unwrap())
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let (keystore, deployer) = keystore(dir.path());
    anvil
        .rpc
        .call(
            "anvil_setBalance",
            json!([deployer, "0x3635C9ADC5DEA00000"]),
        )
        .unwrap(); // 1,000 POL
                   // Amoy's USDT exists before us: a 6-decimal token someone else deployed.
    let usdt = owner::send(
        &anvil.rpc,
        &accounts[0],
        None,
        &lvlx_core::chain::creation(Contract::MockUsdt, USDT_BIN, &[]).unwrap(),
    )
    .unwrap()["contractAddress"]
        .as_str()
        .map(|a| lvlx_core::siwe::checksummed(a).unwrap())
        .unwrap();
    let (treasury, safe, signer) = (&accounts[1], &accounts[2], &accounts[3]);
    let options = Options {
        network: Network::Amoy,
        rpc_url: anvil.url.clone(),
        keystore: keystore.clone(),
        password: PASSWORD.into(),
        usdt: Some(usdt.clone()),
        mock_usdt: false,
        treasury: treasury.clone(),
        owner: safe.clone(),
        claim_signer: signer.clone(),
        dry_run: true,
        anvil: ANVIL.into(),
        verification_dir: Some(dir.path().join("verification")),
    };

    // The dry run: every transaction with its gas and the cost at the network's price, and
    // nothing on the network.
    let dry = rollout::run(&options).unwrap();
    let price = u128::from_str_radix(
        anvil
            .rpc
            .call("eth_gasPrice", json!([]))
            .unwrap()
            .as_str()
            .unwrap()[2..]
            .as_ref(),
        16,
    )
    .unwrap();
    assert_eq!(dry.chain_id, 80_002);
    assert_eq!(dry.deployer, deployer);
    assert!(
        dry.deployment.steps.len() > 30,
        "{:?}",
        dry.deployment.steps
    );
    assert!(dry.deployment.steps.iter().all(|s| s.gas_used > 21_000));
    assert_eq!(dry.gas_price, price);
    assert_eq!(dry.cost, u128::from(dry.total_gas) * price);
    assert_eq!(
        nonce(&anvil, &deployer),
        0,
        "the dry run sent a transaction"
    );
    for created in &dry.deployment.created {
        assert_eq!(code(&anvil, &created.address), "0x", "{created:?}");
    }
    assert!(!dir.path().join("verification").exists());

    // The real run: the same transactions, in the same order, using the same gas.
    let real = rollout::run(&Options {
        dry_run: false,
        ..options.clone()
    })
    .unwrap();
    let what = |d: &Deployment| {
        d.steps
            .iter()
            .map(|s| (s.what.clone(), s.gas_used))
            .collect::<Vec<_>>()
    };
    assert_eq!(what(&real.deployment), what(&dry.deployment));
    assert_eq!(real.deployment.created, dry.deployment.created);
    let d = &real.deployment;
    // Signed by the keystore's key: the node recovered that sender for every transaction.
    for step in &d.steps {
        let tx = anvil
            .rpc
            .call("eth_getTransactionByHash", json!([step.hash]))
            .unwrap();
        assert_eq!(
            lvlx_core::siwe::checksummed(tx["from"].as_str().unwrap()).unwrap(),
            deployer
        );
        assert_eq!(tx["type"], "0x2", "EIP-1559");
    }
    assert_eq!(nonce(&anvil, &deployer), d.steps.len() as u64);

    // The existing USDT, the treasury, the signer; no development USDT was created.
    assert_eq!(d.usdt, usdt);
    assert!(d.created.iter().all(|c| c.contract != Contract::MockUsdt));
    let address_of = |to: &str, contract, function| match anvil.read(to, contract, function, &[])[..]
    {
        [ethers_core::abi::Token::Address(a)] => ethers_core::utils::to_checksum(&a, None),
        ref other => panic!("{other:?}"),
    };
    assert_eq!(address_of(&d.ico_sale, Contract::IcoSale, "usdt"), usdt);
    assert_eq!(
        address_of(&d.ico_sale, Contract::IcoSale, "treasury"),
        *treasury
    );
    assert_eq!(
        address_of(&d.claim_distributor, Contract::ClaimDistributor, "signer"),
        *signer
    );
    // Every owned contract waits for the Safe to accept; the deployer keeps no LVLX.
    let mut owned = 0;
    for c in &d.created {
        if c.contract.abi().function("pendingOwner").is_ok() {
            assert_eq!(
                address_of(&c.address, c.contract, "pendingOwner"),
                *safe,
                "{c:?}"
            );
            owned += 1;
        }
    }
    assert_eq!(owned, 7);
    assert_eq!(
        anvil.read_uint(&d.lvlx, Contract::Lvlx, "balanceOf", &[&deployer]),
        0
    );
    assert!(anvil.read_uint(&d.lvlx, Contract::Lvlx, "balanceOf", &[safe]) > 0);

    // The verification input: one request per contract whose constructor arguments are the
    // tail of the creation transaction after the compiled bytecode, and the compiler input
    // naming each contract's source.
    let folder = dir.path().join("verification");
    let input: Value =
        serde_json::from_str(&std::fs::read_to_string(folder.join("standard-input.json")).unwrap())
            .unwrap();
    let creations = d.steps.iter().filter(|s| s.what.starts_with("create "));
    for (created, step) in d.created.iter().zip(creations) {
        let request: Value = serde_json::from_str(
            &std::fs::read_to_string(folder.join(format!("{}.json", created.contract.name())))
                .unwrap(),
        )
        .unwrap();
        assert_eq!(request["chainid"], "80002");
        assert_eq!(request["contractaddress"], created.address);
        let sent = anvil
            .rpc
            .call("eth_getTransactionByHash", json!([step.hash]))
            .unwrap()["input"]
            .as_str()
            .unwrap()
            .to_string();
        let args = request["constructorArguements"].as_str().unwrap();
        assert!(
            !args.is_empty() && sent.ends_with(args),
            "{}",
            created.contract.name()
        );
        let name = request["contractname"].as_str().unwrap();
        let file = name.split(':').next().unwrap();
        assert!(input["sources"][file]["content"].is_string(), "{name}");
        assert!(request["compilerversion"]
            .as_str()
            .unwrap()
            .starts_with("v0.8."));
    }
}

#[test]
fn a_deployment_refuses_the_wrong_network_a_missing_usdt_and_a_wrong_password() {
    let anvil = Anvil::start_on(80_002, 2);
    let accounts = anvil.accounts();
    let dir = tempfile::tempdir().unwrap();
    let (keystore, _) = keystore(dir.path());
    let options = Options {
        network: Network::Polygon,
        rpc_url: anvil.url.clone(),
        keystore,
        password: PASSWORD.into(),
        usdt: None,
        mock_usdt: false,
        treasury: accounts[1].clone(),
        owner: accounts[0].clone(),
        claim_signer: accounts[0].clone(),
        dry_run: true,
        anvil: ANVIL.into(),
        verification_dir: None,
    };
    assert!(matches!(
        rollout::run(&options),
        Err(RolloutError::ChainId {
            expected: 137,
            found: 80_002,
            ..
        })
    ));
    let amoy = Options {
        network: Network::Amoy,
        ..options
    };
    assert!(matches!(
        rollout::run(&amoy),
        Err(RolloutError::NoUsdt(Network::Amoy))
    ));
    // An address without a 6-decimal token behind it is not taken for USDT.
    let not_usdt = Options {
        usdt: Some(accounts[1].clone()),
        ..amoy.clone()
    };
    assert!(matches!(
        rollout::run(&not_usdt),
        Err(RolloutError::NotUsdt(_))
    ));
    let wrong = Options {
        mock_usdt: true,
        password: "wrong".into(),
        ..amoy
    };
    assert!(matches!(
        rollout::run(&wrong),
        Err(RolloutError::Keystore(_))
    ));
}
