//! Transactions signed here, by a key read from an encrypted keystore file (the Web3 Secret
//! Storage format that geth, ethers, Foundry's `cast wallet`, MetaMask exports and [`create`]
//! (`lvlx chain keystore new`) write), for deploying to a real network. The key lives in memory
//! for the command's run only; it is never printed, logged or sent, and never taken from the
//! command line or the configuration.

use std::cell::Cell;
use std::path::Path;

use ethers_core::k256::ecdsa::SigningKey;
use ethers_core::types::transaction::eip1559::Eip1559TransactionRequest;
use ethers_core::types::transaction::eip2718::TypedTransaction;
use ethers_core::types::{Address, Bytes, NameOrAddress, Signature, U256};
use serde_json::{json, Value};

use super::owner::{receipt, SendError, Sender};
use super::rpc::{quantity, Rpc, RpcError};

#[derive(Debug, thiserror::Error)]
pub enum KeystoreError {
    #[error("cannot read the keystore {0}: {1}")]
    Read(String, String),
    #[error("the keystore {0} does not open with this password")]
    Password(String),
    #[error("{0} is not a Web3 Secret Storage keystore (version 3)")]
    NotKeystore(String),
    #[error("the keystore {0} holds no valid secp256k1 key")]
    Key(String),
    #[error("{0} exists: a keystore is never written over another file")]
    Exists(String),
    #[error("cannot write the keystore {0}: {1}")]
    Write(String, String),
}

/// The scrypt cost geth, ethers and Foundry write keystores with (n = 2^18, r = 8, p = 1): about
/// a second and 256 MiB to open, on purpose.
const SCRYPT_LOG_N: u8 = 18;
const SCRYPT_R: u32 = 8;
const SCRYPT_P: u32 = 1;

/// A new random secp256k1 key written to `path` (which must not exist; mode 0600) as a Web3
/// Secret Storage keystore (version 3) under `password`, laid out as geth writes it: scrypt
/// (n 2^18, r 8, p 1, dklen 32, a 32-byte salt), AES-128-CTR with a 16-byte IV, the MAC
/// keccak256(derived key[16..32] ‖ ciphertext), a random UUID v4 `id` and the `address`
/// (lower-case hex without 0x). Answers the address (EIP-55).
pub fn create(path: &Path, password: &str) -> Result<String, KeystoreError> {
    use aes::cipher::{KeyIvInit, StreamCipher};
    use rand::RngCore;
    let name = path.display().to_string();
    let mut rng = rand::rngs::OsRng;
    let key = loop {
        let mut secret = [0u8; 32];
        rng.fill_bytes(&mut secret);
        // Below the curve's order and not zero: all but ~2^-128 of draws.
        if let Ok(key) = SigningKey::from_slice(&secret) {
            break key;
        }
    };
    let address = ethers_core::utils::secret_key_to_address(&key);
    let (mut salt, mut iv, mut id) = ([0u8; 32], [0u8; 16], [0u8; 16]);
    rng.fill_bytes(&mut salt);
    rng.fill_bytes(&mut iv);
    rng.fill_bytes(&mut id);
    let params = scrypt::Params::new(SCRYPT_LOG_N, SCRYPT_R, SCRYPT_P).expect("valid parameters");
    let mut derived = [0u8; 32];
    scrypt::scrypt(password.as_bytes(), &salt, &params, &mut derived).expect("32 bytes");
    let mut ciphertext = key.to_bytes().to_vec();
    ctr::Ctr128BE::<aes::Aes128>::new(derived[..16].into(), (&iv).into())
        .apply_keystream(&mut ciphertext);
    let mac = ethers_core::utils::keccak256([&derived[16..], &ciphertext[..]].concat());
    // UUID version 4 (random), RFC 4122 variant.
    id[6] = (id[6] & 0x0f) | 0x40;
    id[8] = (id[8] & 0x3f) | 0x80;
    let id = hex::encode(id);
    let keystore = json!({
        "address": hex::encode(address.as_bytes()),
        "crypto": {
            "cipher": "aes-128-ctr",
            "ciphertext": hex::encode(&ciphertext),
            "cipherparams": {"iv": hex::encode(iv)},
            "kdf": "scrypt",
            "kdfparams": {
                "dklen": 32,
                "n": 1u32 << SCRYPT_LOG_N,
                "p": SCRYPT_P,
                "r": SCRYPT_R,
                "salt": hex::encode(salt),
            },
            "mac": hex::encode(mac),
        },
        "id": format!("{}-{}-{}-{}-{}", &id[..8], &id[8..12], &id[12..16], &id[16..20], &id[20..]),
        "version": 3,
    });
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists => KeystoreError::Exists(name.clone()),
        _ => KeystoreError::Write(name.clone(), e.to_string()),
    })?;
    std::io::Write::write_all(&mut file, format!("{keystore}\n").as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(|e| KeystoreError::Write(name, e.to_string()))?;
    Ok(ethers_core::utils::to_checksum(&address, None))
}

/// The secret of a Web3 Secret Storage keystore (version 3) as geth, ethers and wallet exports
/// write it: ethers v6 spells the `crypto` object `Crypto`, which the standard's readers take
/// as the same. eth-keystore reads only `crypto` and only from a file, so the keystore is
/// written again, spelled so, to a private file of its own for the moment it decrypts (the
/// file holds nothing the keystore does not: it is still encrypted).
fn decrypt(text: &[u8], password: &str, name: &str) -> Result<Vec<u8>, KeystoreError> {
    let not_keystore = || KeystoreError::NotKeystore(name.to_string());
    let mut json: Value = serde_json::from_slice(text).map_err(|_| not_keystore())?;
    let object = json.as_object_mut().ok_or_else(not_keystore)?;
    if !object.contains_key("crypto") {
        let crypto = object.remove("Crypto").ok_or_else(not_keystore)?;
        object.insert("crypto".into(), crypto);
    }
    if object.get("version").and_then(Value::as_u64) != Some(3) {
        return Err(not_keystore());
    }
    static OPENED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = OPENED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("lvlx-keystore-{}-{n}", std::process::id()));
    std::fs::create_dir(&dir).map_err(|e| KeystoreError::Read(name.to_string(), e.to_string()))?;
    let file = dir.join("keystore.json");
    let written = std::fs::write(&file, json.to_string());
    let secret = written
        .map_err(|e| KeystoreError::Read(name.to_string(), e.to_string()))
        .and_then(|()| {
            eth_keystore::decrypt_key(&file, password).map_err(|e| match e {
                eth_keystore::KeystoreError::MacMismatch => {
                    KeystoreError::Password(name.to_string())
                }
                _ => not_keystore(),
            })
        });
    let _ = std::fs::remove_dir_all(&dir);
    secret
}

/// A key from a keystore file, signing EIP-1559 transactions for one chain.
pub struct Keyed {
    key: SigningKey,
    address: Address,
    chain_id: u64,
    /// The next nonce, read from the node once and counted here after.
    nonce: Cell<Option<u64>>,
}

impl std::fmt::Debug for Keyed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Keyed({})", self.address())
    }
}

impl Keyed {
    /// Opens the keystore at `path` with `password`, for transactions on `chain_id`.
    pub fn open(path: &Path, password: &str, chain_id: u64) -> Result<Keyed, KeystoreError> {
        let name = path.display().to_string();
        let text =
            std::fs::read(path).map_err(|e| KeystoreError::Read(name.clone(), e.to_string()))?;
        let secret = decrypt(&text, password, &name)?;
        let key = SigningKey::from_slice(&secret).map_err(|_| KeystoreError::Key(name))?;
        let address = ethers_core::utils::secret_key_to_address(&key);
        Ok(Keyed {
            key,
            address,
            chain_id,
            nonce: Cell::new(None),
        })
    }

    /// Sends `data` to `to` with the fees the node suggests now (priority fee from
    /// `eth_maxPriorityFeePerGas`, at most twice the latest base fee on top) and the gas it
    /// estimates plus a fifth; tells `sent` its nonce and hash before it leaves; returns the hash
    /// without waiting.
    fn submit(
        &self,
        rpc: &Rpc,
        to: Option<&str>,
        data: &str,
        sent: &mut dyn FnMut(u64, &str) -> Result<(), SendError>,
    ) -> Result<String, SendError> {
        let nonce = match self.nonce.get() {
            Some(n) => n,
            None => quantity(&rpc.call(
                "eth_getTransactionCount",
                json!([self.address(), "pending"]),
            )?)?,
        };
        let mut call = json!({"from": self.address(), "data": data});
        if let Some(to) = to {
            call["to"] = json!(to);
        }
        let gas = quantity(&rpc.call("eth_estimateGas", json!([call]))?)?;
        let tip = u256(&rpc.call("eth_maxPriorityFeePerGas", json!([]))?)?;
        let block = rpc.call("eth_getBlockByNumber", json!(["latest", false]))?;
        let base = u256(&block["baseFeePerGas"])?;
        let data: Bytes = data
            .parse()
            .map_err(|_| RpcError::Answer("calldata is not hex".into()))?;
        let mut tx = Eip1559TransactionRequest::new()
            .from(self.address)
            .chain_id(self.chain_id)
            .nonce(nonce)
            .gas(gas + gas / 5)
            .max_priority_fee_per_gas(tip)
            .max_fee_per_gas(base * 2 + tip)
            .data(data);
        if let Some(to) = to {
            let to: Address = to
                .parse()
                .map_err(|_| RpcError::Answer(format!("bad address {to}")))?;
            tx = tx.to(NameOrAddress::Address(to));
        }
        let tx = TypedTransaction::Eip1559(tx);
        let raw = tx.rlp_signed(&self.sign(tx.sighash().0));
        let hash = format!(
            "0x{}",
            hex::encode(ethers_core::utils::keccak256(raw.as_ref()))
        );
        sent(nonce, &hash)?;
        rpc.call("eth_sendRawTransaction", json!([raw]))?;
        self.nonce.set(Some(nonce + 1));
        Ok(hash)
    }

    /// An EIP-1559 signature: y-parity as v (0 or 1), s in the lower half.
    fn sign(&self, sighash: [u8; 32]) -> Signature {
        let (sig, recovery) = self
            .key
            .sign_prehash_recoverable(&sighash)
            .expect("a 32-byte digest always signs");
        let bytes = sig.to_bytes();
        Signature {
            r: U256::from_big_endian(&bytes[..32]),
            s: U256::from_big_endian(&bytes[32..]),
            v: u64::from(recovery.to_byte()),
        }
    }
}

impl Sender for Keyed {
    fn address(&self) -> String {
        ethers_core::utils::to_checksum(&self.address, None)
    }

    fn send_noted(
        &self,
        rpc: &Rpc,
        to: Option<&str>,
        data: &str,
        sent: &mut dyn FnMut(u64, &str) -> Result<(), SendError>,
    ) -> Result<Value, SendError> {
        let hash = self.submit(rpc, to, data, sent)?;
        receipt(rpc, &hash)
    }
}

/// A hex quantity that may exceed 64 bits (fees in wei).
fn u256(value: &Value) -> Result<U256, RpcError> {
    value
        .as_str()
        .and_then(|s| U256::from_str_radix(s.trim_start_matches("0x"), 16).ok())
        .ok_or_else(|| RpcError::Answer(format!("not a quantity: {value}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keystores nobody here wrote: the Web3 Secret Storage Definition's PBKDF2 vector
    /// (ethereum/wiki, password "testpassword"), go-ethereum's `testdata/keystore/aaa` (scrypt,
    /// password "foobar", the address geth wrote beside it) and go-ethereum's `31_byte_key`
    /// (scrypt, a key with a leading zero byte, password "foo").
    const PBKDF2: &str = r#"{"crypto":{"cipher":"aes-128-ctr","cipherparams":{"iv":"6087dab2f9fdbbfaddc31a909735c1e6"},"ciphertext":"5318b4d5bcd28de64ee5559e671353e16f075ecae9f99c7a79a38af5f869aa46","kdf":"pbkdf2","kdfparams":{"c":262144,"dklen":32,"prf":"hmac-sha256","salt":"ae3cd4e7013836a3df6bd7241b12db061dbe2c6785853cce422d148a624ce0bd"},"mac":"517ead924a9d0dc3124507e3393d175ce3ff7c1e96529c6c555ce9e51205e9b2"},"id":"3198bc9c-6672-5ab3-d995-4942343ae5b6","version":3}"#;
    const PBKDF2_KEY: &str = "7a28b5ba57c53603b0b07b56bba752f7784bf506fa95edc395f5cf6c7514fe9d";
    const GETH_AAA: &str = r#"{"address":"f466859ead1932d743d622cb74fc058882e8648a","crypto":{"cipher":"aes-128-ctr","ciphertext":"cb664472deacb41a2e995fa7f96fe29ce744471deb8d146a0e43c7898c9ddd4d","cipherparams":{"iv":"dfd9ee70812add5f4b8f89d0811c9158"},"kdf":"scrypt","kdfparams":{"dklen":32,"n":8,"p":16,"r":8,"salt":"0d6769bf016d45c479213990d6a08d938469c4adad8a02ce507b4a4e7b7739f1"},"mac":"bac9af994b15a45dd39669fc66f9aa8a3b9dd8c22cb16e4d8d7ea089d0f1a1a9"},"id":"472e8b3d-afb6-45b5-8111-72c89895099a","version":3}"#;
    const GETH_31_BYTES: &str = r#"{"crypto":{"cipher":"aes-128-ctr","cipherparams":{"iv":"e0c41130a323adc1446fc82f724bca2f"},"ciphertext":"9517cd5bdbe69076f9bf5057248c6c050141e970efa36ce53692d5d59a3984","kdf":"scrypt","kdfparams":{"dklen":32,"n":2,"r":8,"p":1,"salt":"711f816911c92d649fb4c84b047915679933555030b3552c1212609b38208c63"},"mac":"d5e116151c6aa71470e67a7d42c9620c75c4d23229847dcc127794f0732b0db5"},"id":"fecfc4ce-e956-48fd-953b-30f8b52ed66c","version":3}"#;
    const GETH_31_BYTES_KEY: &str =
        "fa7b3db73dc7dfdf8c5fbdb796d741e4488628c41fc4febd9160a866ba0f35";

    fn open(text: &str, password: &str) -> Result<Keyed, KeystoreError> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("key.json");
        std::fs::write(&path, text).unwrap();
        Keyed::open(&path, password, 137)
    }

    fn address_of(key_hex: &str) -> Address {
        let mut bytes = hex::decode(key_hex).unwrap();
        while bytes.len() < 32 {
            bytes.insert(0, 0);
        }
        ethers_core::utils::secret_key_to_address(&SigningKey::from_slice(&bytes).unwrap())
    }

    #[test]
    fn keystores_written_elsewhere_open_to_their_key_and_a_wrong_password_does_not() {
        let geth: Address = "0xf466859ead1932d743d622cb74fc058882e8648a"
            .parse()
            .unwrap();
        for (vector, password, address) in [
            (PBKDF2, "testpassword", address_of(PBKDF2_KEY)),
            (GETH_AAA, "foobar", geth),
            (GETH_31_BYTES, "foo", address_of(GETH_31_BYTES_KEY)),
        ] {
            let keyed = open(vector, password).unwrap();
            assert_eq!(keyed.address, address);
            assert!(matches!(
                open(vector, "not the password"),
                Err(KeystoreError::Password(_))
            ));
            // As ethers v6's Wallet.encrypt writes it: `Crypto`, capital C.
            let ethers = vector.replace("\"crypto\"", "\"Crypto\"");
            assert_eq!(open(&ethers, password).unwrap().address, address);
        }
        for not_a_keystore in ["not json", "[1]", r#"{"version":3}"#, r#"{"crypto":{}}"#] {
            assert!(
                matches!(
                    open(not_a_keystore, "x"),
                    Err(KeystoreError::NotKeystore(_))
                ),
                "{not_a_keystore}"
            );
        }
        // Never printed: Debug shows the address only.
        let shown = format!("{:?}", open(PBKDF2, "testpassword").unwrap());
        assert!(!shown.to_lowercase().contains(PBKDF2_KEY), "{shown}");
    }
}
