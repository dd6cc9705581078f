//! Deploying to a real network (`lvlx chain deploy --keystore`), played on an anvil node with
//! Amoy's chain id 80002: a keystore's key signs (anvil, not this code, recovers who sent each
//! transaction), the dry run sends nothing and foretells the real run's gas, the existing USDT is
//! used, every contract waits for the Safe to accept it, and the explorer's verification input
//! matches what was sent. On a Polygon stand-in (chain id 137): an interrupted deployment of the
//! real `lvlx` resumes from its journal to one set of contracts and refuses a moved nonce, its
//! printed section alone starts a server, the dry run tells what an empty deployer lacks, an
//! owner without code is refused, `lvlx chain keystore new` writes a keystore the reader opens,
//! and the development deployment keeps the operator's settings.

use std::path::PathBuf;

use lvlx_backend::chain::deploy::Deployment;
use lvlx_backend::chain::owner;
use lvlx_backend::chain::rollout::{self, Network, Options, RolloutError};
use lvlx_backend::chain::rpc::quantity;
use lvlx_core::chain::Contract;
use serde_json::{json, Value};

use crate::common::anvil::{Anvil, ANVIL};
use crate::common::process::{lvlx_serve, Served};

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
        // The owner here is a dev account: accepted only when asked.
        owner_eoa: true,
        journal: Some(dir.path().join("deployment.jsonl")),
        allow_used_deployer: false,
        public_rpc_url: None,
        explorer_url: None,
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
        owner_eoa: true,
        journal: Some(dir.path().join("deployment.jsonl")),
        allow_used_deployer: false,
        public_rpc_url: None,
        explorer_url: None,
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

/// The real `lvlx` binary, run from `dir` with a configuration of its own (none, a data folder
/// in `dir`) and the keystore's password in the environment.
fn lvlx(dir: &std::path::Path, args: &[&str]) -> std::process::Command {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_lvlx"));
    cmd.args(args)
        .current_dir(dir)
        .env("LVLX_CONFIG", dir.join("none.toml"))
        .env("LVLX_DATA_DIR", dir.join("data"))
        .env("LVLX_LOG", "error")
        .env("LVLX_KEYSTORE_PASSWORD", PASSWORD);
    cmd
}

/// A Polygon stand-in: anvil with chain id 137, an existing 6-decimal USDT, a Safe of dev
/// accounts 1 and 2 needing both, and a fresh keystore funded with 1,000 POL. Answers (the
/// chain, its accounts, the USDT, the Safe, the keystore, the deployer).
fn polygon_stand_in(
    dir: &std::path::Path,
) -> (Anvil, Vec<String>, String, String, PathBuf, String) {
    let anvil = Anvil::start_on(137, 5);
    let accounts: Vec<String> = anvil
        .accounts()
        .iter()
        .map(|a| lvlx_core::siwe::checksummed(a).unwrap())
        .collect();
    let (keystore, deployer) = keystore(dir);
    anvil
        .rpc
        .call(
            "anvil_setBalance",
            json!([deployer, "0x3635C9ADC5DEA00000"]),
        )
        .unwrap();
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
    let safe = lvlx_backend::chain::deploy::deploy_safe(
        &anvil.rpc,
        &owner::Unlocked(accounts[0].clone()),
        &lvlx_backend::chain::deploy::SafePlan {
            owners: vec![accounts[1].clone(), accounts[2].clone()],
            threshold: 2,
        },
    )
    .unwrap();
    (anvil, accounts, usdt, safe, keystore, deployer)
}

/// Every contract creation `from` sent, over the whole chain.
fn creations_by(anvil: &Anvil, from: &str) -> usize {
    let head = quantity(&anvil.rpc.call("eth_blockNumber", json!([])).unwrap()).unwrap();
    (0..=head)
        .map(|n| {
            let block = anvil
                .rpc
                .call("eth_getBlockByNumber", json!([format!("0x{n:x}"), true]))
                .unwrap();
            block["transactions"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|tx| {
                    tx["from"].as_str().unwrap().eq_ignore_ascii_case(from) && tx["to"].is_null()
                })
                .count()
        })
        .sum()
}

/// The deployment on a Polygon stand-in, from a keystore, to a Safe, through the real binary:
/// killed (SIGKILL) after 16 transactions mined, it had already printed each contract it
/// created; run again with the deployer's nonce moved by a transaction outside the journal it
/// refuses and sends nothing (a fresh journal too: the nonce is not 0); with the nonce as the
/// journal left it, the same command resumes and finishes one set of contracts — no second
/// LVLX or IcoSale — and prints a `[chain]` section that, alone in a configuration file, starts
/// a server whose readiness says the chain answers.
#[tokio::test(flavor = "multi_thread")]
async fn an_interrupted_deployment_resumes_to_one_set_whose_printed_section_starts_a_server() {
    use std::io::{BufRead, BufReader};
    let dir = tempfile::tempdir().unwrap();
    let (anvil, accounts, usdt, safe, keystore, deployer) = polygon_stand_in(dir.path());
    let journal = dir.path().join("deployment-137.jsonl");
    let args = [
        "chain",
        "deploy",
        "--rpc",
        &anvil.url,
        "--network",
        "polygon",
        "--keystore",
        keystore.to_str().unwrap(),
        "--usdt",
        &usdt,
        "--treasury",
        &accounts[3],
        "--owner",
        &safe,
    ];

    // The first run, killed once 16 transactions are mined.
    let mut child = lvlx(dir.path(), &args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut printed = Vec::new();
    let mut mined = 0;
    for line in BufReader::new(child.stderr.take().unwrap()).lines() {
        let line = line.unwrap();
        if line.split_whitespace().nth(1) == Some("gas") {
            mined += 1;
        }
        printed.push(line);
        if mined == 16 {
            child.kill().unwrap();
            break;
        }
    }
    child.wait().unwrap();
    assert_eq!(mined, 16, "{printed:#?}");
    let first_step = printed.iter().position(|l| l.contains(" gas ")).unwrap();
    let owner_line = printed
        .iter()
        .position(|l| l.contains("is a Safe: 2 of its 2 owners must sign"))
        .unwrap_or_else(|| panic!("{printed:#?}"));
    assert!(
        owner_line < first_step,
        "the Safe is named before anything is sent"
    );
    assert!(
        printed[owner_line].contains(&accounts[1]) && printed[owner_line].contains(&accounts[2])
    );
    // Every contract created is printed as it is: LVLX first, then the sale.
    let created: Vec<String> = printed
        .iter()
        .filter_map(|l| l.trim().strip_prefix("created at "))
        .map(str::to_string)
        .collect();
    assert!(created.len() >= 4, "{printed:#?}");
    let (lvlx_before, sale_before) = (created[0].clone(), created[1].clone());
    let interrupted = nonce(&anvil, &deployer);
    assert!(interrupted >= 16, "{interrupted}");

    // A transaction outside the journal moves the nonce: the rerun refuses and sends nothing,
    // and so does a fresh deployment (another journal) from this used deployer.
    let snapshot = anvil.rpc.call("evm_snapshot", json!([])).unwrap();
    let keyed = lvlx_backend::chain::keyed::Keyed::open(&keystore, PASSWORD, 137).unwrap();
    owner::Sender::send(&keyed, &anvil.rpc, Some(&accounts[4]), "0x").unwrap();
    let refused = lvlx(dir.path(), &args).output().unwrap();
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success(), "{said}");
    assert!(
        said.contains(&format!(
            "expects the deployer {deployer}'s next nonce to be {interrupted}, but the chain says {}",
            interrupted + 1
        )),
        "{said}"
    );
    let mut fresh = args.to_vec();
    let other = dir.path().join("other.jsonl");
    fresh.extend(["--journal", other.to_str().unwrap()]);
    let refused = lvlx(dir.path(), &fresh).output().unwrap();
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success(), "{said}");
    assert!(
        said.contains(&format!("its nonce is {}, not 0", interrupted + 1))
            && said.contains("--allow-used-deployer"),
        "{said}"
    );
    assert_eq!(
        nonce(&anvil, &deployer),
        interrupted + 1,
        "nothing was sent"
    );
    assert!(!other.exists());
    anvil.rpc.call("evm_revert", json!([snapshot])).unwrap();
    assert_eq!(nonce(&anvil, &deployer), interrupted);

    // The same command again resumes and finishes.
    let done = lvlx(dir.path(), &args).output().unwrap();
    let (out, said) = (
        String::from_utf8_lossy(&done.stdout).to_string(),
        String::from_utf8_lossy(&done.stderr).to_string(),
    );
    assert!(done.status.success(), "{said}{out}");
    assert!(said.contains("resuming from the journal"), "{said}");
    assert!(said.contains("(done before: journal)"), "{said}");
    let text = &out[out.find("\n[chain]\n").unwrap_or_else(|| panic!("{out}")) + 1..];
    let section: lvlx_backend::config::Chain = toml::from_str::<toml::Value>(text).unwrap()
        ["chain"]
        .clone()
        .try_into()
        .unwrap();
    assert_eq!(section.lvlx, lvlx_before);
    assert_eq!(section.ico_sale, sale_before);
    assert_eq!(section.usdt, usdt);
    assert_eq!((section.chain_id, section.confirmations), (137, 64));
    assert!(section.finalized_tag);
    // One set: the 8 contracts, each created once; every nonce the journal's.
    assert_eq!(creations_by(&anvil, &deployer), 8);
    let lines: Vec<Value> = std::fs::read_to_string(&journal)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mined: Vec<&Value> = lines.iter().filter(|l| l["kind"] == "mined").collect();
    assert_eq!(nonce(&anvil, &deployer), mined.len() as u64);
    for (i, m) in mined.iter().enumerate() {
        assert_eq!(
            (m["step"].as_u64(), m["nonce"].as_u64()),
            (Some(i as u64), Some(i as u64))
        );
    }
    let supply = anvil.read_uint(&section.lvlx, Contract::Lvlx, "totalSupply", &[]);
    assert_eq!(
        anvil.read_uint(
            &section.lvlx,
            Contract::Lvlx,
            "balanceOf",
            &[&section.ico_sale]
        ),
        supply / 2
    );
    assert_eq!(
        anvil.read_uint(&section.lvlx, Contract::Lvlx, "balanceOf", &[&deployer]),
        0
    );
    assert!(anvil.read_uint(&section.lvlx, Contract::Lvlx, "balanceOf", &[&safe]) > 0);

    // The printed section alone is a configuration: a server starts on it and is ready.
    let server_dir = tempfile::tempdir().unwrap();
    let file = server_dir.path().join("lvlx.toml");
    std::fs::write(&file, text).unwrap();
    let mut serve = Served::start(
        lvlx_serve(&file, &server_dir.path().join("data"))
            .env("LVLX_BIND", "127.0.0.1:0")
            .env("LVLX_LOG", "error"),
    );
    let addr = serve.addr.clone();
    let (status, ready) =
        crate::common::process::request(&addr, "GET", "/api/v1/ready", None, &[], "")
            .await
            .unwrap();
    serve.kill();
    assert_eq!(status, 200, "{ready}");
    assert_eq!(ready["chain"], true, "{ready}");
}

/// The dry run tells what the deployment needs whatever the deployer holds: with 0 POL and
/// with 0.001 POL it plays every transaction (on a fork it funds), reports the gas, the POL
/// needed and how much is missing, and sends nothing; funded with exactly what it said is
/// needed, the real run goes through.
#[test]
fn the_dry_run_reports_the_pol_needed_and_missing_with_an_empty_deployer() {
    let dir = tempfile::tempdir().unwrap();
    let (anvil, accounts, usdt, safe, keystore, deployer) = polygon_stand_in(dir.path());
    let options = Options {
        network: Network::Polygon,
        rpc_url: anvil.url.clone(),
        keystore,
        password: PASSWORD.into(),
        usdt: Some(usdt),
        mock_usdt: false,
        treasury: accounts[3].clone(),
        owner: safe.clone(),
        claim_signer: accounts[4].clone(),
        dry_run: true,
        anvil: ANVIL.into(),
        verification_dir: Some(dir.path().join("verification")),
        owner_eoa: false,
        journal: Some(dir.path().join("deployment.jsonl")),
        allow_used_deployer: false,
        public_rpc_url: None,
        explorer_url: None,
    };
    let mut needed = 0;
    for held in [0u128, 10u128.pow(15)] {
        anvil
            .rpc
            .call("anvil_setBalance", json!([deployer, format!("0x{held:x}")]))
            .unwrap();
        let dry = rollout::run(&options).unwrap();
        assert!(dry.deployment.steps.len() > 30);
        assert_eq!(dry.balance, held);
        assert!(dry.total_gas > 10_000_000, "{}", dry.total_gas);
        assert!(dry.needed >= dry.cost && dry.cost > 0);
        assert_eq!(dry.missing, dry.needed - held);
        assert_eq!(
            nonce(&anvil, &deployer),
            0,
            "the dry run sent a transaction"
        );
        assert!(!dir.path().join("deployment.jsonl").exists());
        needed = dry.needed;
    }
    // Exactly what the dry run said is enough.
    anvil
        .rpc
        .call(
            "anvil_setBalance",
            json!([deployer, format!("0x{needed:x}")]),
        )
        .unwrap();
    let real = rollout::run(&Options {
        dry_run: false,
        ..options
    })
    .unwrap();
    assert_eq!(nonce(&anvil, &deployer), real.deployment.steps.len() as u64);
}

/// An owner that is an ordinary account is refused before anything is sent, unless asked
/// (`--owner-eoa`); a Safe is named with its owners and threshold.
#[test]
fn an_owner_without_code_is_refused_and_a_safe_is_read_for_its_owners() {
    let dir = tempfile::tempdir().unwrap();
    let (anvil, accounts, usdt, safe, keystore, deployer) = polygon_stand_in(dir.path());
    let options = Options {
        network: Network::Polygon,
        rpc_url: anvil.url.clone(),
        keystore,
        password: PASSWORD.into(),
        usdt: Some(usdt),
        mock_usdt: false,
        treasury: accounts[3].clone(),
        owner: accounts[1].clone(),
        claim_signer: accounts[4].clone(),
        dry_run: false,
        anvil: ANVIL.into(),
        verification_dir: Some(dir.path().join("verification")),
        owner_eoa: false,
        journal: Some(dir.path().join("deployment.jsonl")),
        allow_used_deployer: false,
        public_rpc_url: None,
        explorer_url: None,
    };
    assert!(matches!(
        rollout::run(&options),
        Err(RolloutError::OwnerNotContract(owner)) if owner == accounts[1]
    ));
    assert_eq!(nonce(&anvil, &deployer), 0);
    assert!(!dir.path().join("deployment.jsonl").exists());
    let dry = rollout::run(&Options {
        owner: safe,
        dry_run: true,
        ..options.clone()
    })
    .unwrap();
    assert_eq!(
        dry.owner,
        rollout::OwnerKind::Safe {
            owners: vec![accounts[1].clone(), accounts[2].clone()],
            threshold: 2
        }
    );
    let eoa = rollout::run(&Options {
        owner_eoa: true,
        dry_run: true,
        ..options
    })
    .unwrap();
    assert_eq!(eoa.owner, rollout::OwnerKind::Account);
}

/// `lvlx chain keystore new` writes Web3 Secret Storage as geth does (scrypt n 2^18, r 8, p 1,
/// AES-128-CTR, a UUID, the address), private to its owner, never over another file; the
/// keystore reader opens it to the address printed, and a key made so signs a deployment's
/// transactions on anvil.
#[test]
fn a_keystore_made_by_lvlx_opens_with_the_reader_to_the_address_it_printed() {
    let dir = tempfile::tempdir().unwrap();
    let password = dir.path().join("password.txt");
    std::fs::write(&password, format!("{PASSWORD}\n")).unwrap();
    let out = dir.path().join("deployer.json");
    let made = lvlx(
        dir.path(),
        &[
            "chain",
            "keystore",
            "new",
            "--out",
            out.to_str().unwrap(),
            "--password-file",
            password.to_str().unwrap(),
        ],
    )
    .env_remove("LVLX_KEYSTORE_PASSWORD")
    .output()
    .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let address = String::from_utf8_lossy(&made.stdout).trim().to_string();
    let keyed = lvlx_backend::chain::keyed::Keyed::open(&out, PASSWORD, 137).unwrap();
    assert_eq!(owner::Sender::address(&keyed), address);
    let file: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(file["version"], 3);
    assert_eq!(file["address"], address[2..].to_lowercase());
    let crypto = &file["crypto"];
    assert_eq!(crypto["cipher"], "aes-128-ctr");
    assert_eq!(crypto["kdf"], "scrypt");
    assert_eq!(
        crypto["kdfparams"],
        json!({"dklen": 32, "n": 262144, "p": 1, "r": 8, "salt": crypto["kdfparams"]["salt"]})
    );
    assert_eq!(crypto["kdfparams"]["salt"].as_str().unwrap().len(), 64);
    assert_eq!(crypto["cipherparams"]["iv"].as_str().unwrap().len(), 32);
    assert_eq!(crypto["ciphertext"].as_str().unwrap().len(), 64);
    assert_eq!(crypto["mac"].as_str().unwrap().len(), 64);
    let id = file["id"].as_str().unwrap();
    assert_eq!((id.len(), &id[14..15]), (36, "4"), "{id}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&out).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    assert!(matches!(
        lvlx_backend::chain::keyed::Keyed::open(&out, "wrong", 137),
        Err(lvlx_backend::chain::keyed::KeystoreError::Password(_))
    ));
    // Never over a file: the second run refuses and the key stays.
    let before = std::fs::read(&out).unwrap();
    let again = lvlx(
        dir.path(),
        &["chain", "keystore", "new", "--out", out.to_str().unwrap()],
    )
    .output()
    .unwrap();
    assert!(!again.status.success());
    assert_eq!(std::fs::read(&out).unwrap(), before);
    // It signs: a transfer from it is mined as from its address.
    let anvil = Anvil::start_on(137, 1);
    anvil
        .rpc
        .call("anvil_setBalance", json!([address, "0xDE0B6B3A7640000"]))
        .unwrap();
    let receipt =
        owner::Sender::send(&keyed, &anvil.rpc, Some(&anvil.accounts()[0]), "0x").unwrap();
    assert_eq!(
        lvlx_core::siwe::checksummed(receipt["from"].as_str().unwrap()).unwrap(),
        address
    );
}

/// `lvlx chain deploy` on the development chain with an operator's `lvlx.toml` whose
/// `[chain]` asks for 64 confirmations and the finalized tag: asked to lower confirmations it
/// refuses before sending anything; otherwise it deploys, writes the new addresses, keeps both
/// settings and the operator's comment, and prints every change it made.
#[test]
fn the_development_deployment_keeps_the_operators_settings_and_says_every_change() {
    let anvil = Anvil::start();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("lvlx.toml");
    let zero = "0x0000000000000000000000000000000000000001";
    let operator = format!(
        "# the operator's settings\n[chain]\nrpc_url = \"{}\"\npublic_rpc_url = \"https://wallets.example\"\nexplorer_url = \"https://polygonscan.com\"\nusdt = \"{zero}\"\nlvlx = \"{zero}\"\nico_sale = \"{zero}\"\nstart_block = 0\nconfirmations = 64 # the operator's\nfinalized_tag = true\n",
        anvil.url
    );
    std::fs::write(&file, &operator).unwrap();
    let deploy = |extra: &[&str]| {
        let mut args = vec!["chain", "deploy", "--rpc", &anvil.url];
        args.extend(extra);
        lvlx(dir.path(), &args)
            .env("LVLX_CONFIG", &file)
            .output()
            .unwrap()
    };
    let head = || quantity(&anvil.rpc.call("eth_blockNumber", json!([])).unwrap()).unwrap();
    let before = head();
    let refused = deploy(&["--confirmations", "0"]);
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success());
    assert!(
        said.contains("confirmations would go from 64 to 0"),
        "{said}"
    );
    assert_eq!(head(), before, "nothing was sent");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), operator);

    let done = deploy(&[]);
    let out = String::from_utf8_lossy(&done.stdout);
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.starts_with("# the operator's settings\n"), "{text}");
    assert!(
        text.contains("confirmations = 64 # the operator's"),
        "{text}"
    );
    assert!(text.contains("finalized_tag = true"), "{text}");
    assert!(
        text.contains("public_rpc_url = \"https://wallets.example\""),
        "{text}"
    );
    let config: toml::Value = toml::from_str(&text).unwrap();
    let lvlx = config["chain"]["lvlx"].as_str().unwrap();
    assert_ne!(lvlx, zero);
    assert!(
        out.contains(&format!("[chain]: changed lvlx = \"{zero}\" → \"{lvlx}\"")),
        "{out}"
    );
    assert!(
        out.contains("[chain]: added max_block_range = 1000"),
        "{out}"
    );
    assert!(
        !out.contains("confirmations") && !out.contains("finalized_tag"),
        "{out}"
    );
}
