//! The owners' Safe (safe-global 1.4.1): the transaction they sign (`SafeTx`), its EIP-712 hash
//! as the Safe computes it (`getTransactionHash`), the typed data a wallet shows and signs
//! (`eth_signTypedData_v4`), who signed, and `execTransaction`'s calldata with the signatures in
//! the order the Safe checks them. Proposals never pay the executor back: the gas fields, the
//! gas token and the refund receiver are zero, and the call is a plain call (operation 0).

use ethers_core::abi::{self, Token};
use ethers_core::types::{Address, RecoveryMessage, Signature, H256, U256};
use ethers_core::utils::{keccak256, to_checksum};
use serde_json::{json, Value};

use super::{address, bytes, hex0x, ChainError, Contract};

/// `EIP712Domain(uint256 chainId,address verifyingContract)`: Safe 1.3+ names no name or version.
const DOMAIN_TYPE: &str = "EIP712Domain(uint256 chainId,address verifyingContract)";
const SAFE_TX_TYPE: &str = "SafeTx(address to,uint256 value,bytes data,uint8 operation,uint256 safeTxGas,uint256 baseGas,uint256 gasPrice,address gasToken,address refundReceiver,uint256 nonce)";

/// A call the Safe makes once its owners signed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SafeTx {
    pub to: Address,
    /// Wei sent with the call (owner actions send none).
    pub value: u128,
    pub data: Vec<u8>,
    /// The Safe's transaction counter this proposal takes.
    pub nonce: u64,
}

impl SafeTx {
    /// A plain call of `data` (0x hex) on `to` at the Safe's `nonce`.
    pub fn call(to: &str, data: &str, nonce: u64) -> Result<SafeTx, ChainError> {
        Ok(SafeTx {
            to: address(to)?,
            value: 0,
            data: bytes(data)?,
            nonce,
        })
    }

    /// The hash the owners sign and the Safe checks: EIP-712 over the Safe's domain.
    pub fn hash(&self, chain_id: u64, safe: Address) -> [u8; 32] {
        let word = |t: Token| abi::encode(&[t]);
        let domain = keccak256(
            [
                word(Token::FixedBytes(keccak256(DOMAIN_TYPE).to_vec())),
                word(Token::Uint(chain_id.into())),
                word(Token::Address(safe)),
            ]
            .concat(),
        );
        let zero = || word(Token::Uint(U256::zero()));
        let message = keccak256(
            [
                word(Token::FixedBytes(keccak256(SAFE_TX_TYPE).to_vec())),
                word(Token::Address(self.to)),
                word(Token::Uint(self.value.into())),
                word(Token::FixedBytes(keccak256(&self.data).to_vec())),
                zero(), // operation: call
                zero(), // safeTxGas
                zero(), // baseGas
                zero(), // gasPrice
                word(Token::Address(Address::zero())),
                word(Token::Address(Address::zero())),
                word(Token::Uint(self.nonce.into())),
            ]
            .concat(),
        );
        keccak256([&[0x19, 0x01][..], &domain, &message].concat())
    }

    /// What `eth_signTypedData_v4` takes: the wallet shows the Safe, the target and the data.
    pub fn typed_data(&self, chain_id: u64, safe: Address) -> Value {
        let zero = Address::zero();
        json!({
            "types": {
                "EIP712Domain": [
                    {"name": "chainId", "type": "uint256"},
                    {"name": "verifyingContract", "type": "address"},
                ],
                "SafeTx": [
                    {"name": "to", "type": "address"},
                    {"name": "value", "type": "uint256"},
                    {"name": "data", "type": "bytes"},
                    {"name": "operation", "type": "uint8"},
                    {"name": "safeTxGas", "type": "uint256"},
                    {"name": "baseGas", "type": "uint256"},
                    {"name": "gasPrice", "type": "uint256"},
                    {"name": "gasToken", "type": "address"},
                    {"name": "refundReceiver", "type": "address"},
                    {"name": "nonce", "type": "uint256"},
                ],
            },
            "primaryType": "SafeTx",
            "domain": {"chainId": chain_id, "verifyingContract": to_checksum(&safe, None)},
            "message": {
                "to": to_checksum(&self.to, None),
                "value": self.value.to_string(),
                "data": hex0x(&self.data),
                "operation": 0,
                "safeTxGas": "0",
                "baseGas": "0",
                "gasPrice": "0",
                "gasToken": to_checksum(&zero, None),
                "refundReceiver": to_checksum(&zero, None),
                "nonce": self.nonce.to_string(),
            },
        })
    }

    /// `execTransaction`'s calldata with `signatures` (owner, 65-byte signature), which the Safe
    /// wants sorted by owner address, ascending.
    pub fn exec_calldata(&self, signatures: &[(Address, Vec<u8>)]) -> Result<String, ChainError> {
        let mut sorted: Vec<&(Address, Vec<u8>)> = signatures.iter().collect();
        sorted.sort_by_key(|(owner, _)| *owner);
        let packed: Vec<u8> = sorted.iter().flat_map(|(_, s)| s.iter().copied()).collect();
        let f = Contract::Safe
            .abi()
            .function("execTransaction")
            .map_err(|_| ChainError::Function("execTransaction".into()))?;
        let zero = || Token::Uint(U256::zero());
        let data = f
            .encode_input(&[
                Token::Address(self.to),
                Token::Uint(self.value.into()),
                Token::Bytes(self.data.clone()),
                Token::Uint(U256::zero()),
                zero(),
                zero(),
                zero(),
                Token::Address(Address::zero()),
                Token::Address(Address::zero()),
                Token::Bytes(packed),
            ])
            .map_err(|e| ChainError::Data(e.to_string()))?;
        Ok(hex0x(&data))
    }
}

/// Who signed `hash` with `signature` (0x hex, 65 bytes r‖s‖v with v 27 or 28: what
/// `eth_signTypedData_v4` answers). The Safe takes such a signature as it is.
pub fn signer(hash: [u8; 32], signature: &str) -> Result<Address, ChainError> {
    let raw = bytes(signature)?;
    let sig = Signature::try_from(raw.as_slice())
        .map_err(|_| ChainError::Data("not a 65-byte signature".into()))?;
    if sig.v != 27 && sig.v != 28 {
        return Err(ChainError::Data("not an EIP-712 signature".into()));
    }
    // One form of each signature, as the wallet link takes (EIP-2's low s).
    if !crate::siwe::is_low_s(sig.s) {
        return Err(ChainError::Data("high-s signature".into()));
    }
    sig.recover(RecoveryMessage::Hash(H256(hash)))
        .map_err(|_| ChainError::Data("signature does not recover".into()))
}

/// The signature an owner gives by sending `execTransaction` themselves (Safe's "pre-validated"
/// form, v = 1, r = the owner): the development chain's owner acts this way.
pub fn sent_by_owner(owner: Address) -> Vec<u8> {
    let mut signature = vec![0u8; 65];
    signature[12..32].copy_from_slice(owner.as_bytes());
    signature[64] = 1;
    signature
}

/// `setup`'s calldata for a new Safe: its owners, how many must sign, and Safe's fallback
/// handler; no module, no payment.
pub fn setup_calldata(
    owners: &[Address],
    threshold: u64,
    fallback_handler: Address,
) -> Result<String, ChainError> {
    let f = Contract::Safe
        .abi()
        .function("setup")
        .map_err(|_| ChainError::Function("setup".into()))?;
    let data = f
        .encode_input(&[
            Token::Array(owners.iter().map(|o| Token::Address(*o)).collect()),
            Token::Uint(threshold.into()),
            Token::Address(Address::zero()),
            Token::Bytes(Vec::new()),
            Token::Address(fallback_handler),
            Token::Address(Address::zero()),
            Token::Uint(U256::zero()),
            Token::Address(Address::zero()),
        ])
        .map_err(|e| ChainError::Data(e.to_string()))?;
    Ok(hex0x(&data))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ethers_core::k256::ecdsa::SigningKey;
    use ethers_core::utils::secret_key_to_address;

    /// Safe's own test of `getTransactionHash` in safe-global/safe-smart-account
    /// (test/core/Safe.Signatures.spec.ts) is checked on anvil against the deployed contract
    /// (backend/tests/suite/owners.rs); here the hash is checked by signing and recovering.
    #[test]
    fn a_signature_recovers_its_owner_and_a_changed_field_does_not() {
        let key = SigningKey::from_slice(&[7u8; 32]).unwrap();
        let owner = secret_key_to_address(&key);
        let safe = address("0x1111111111111111111111111111111111111111").unwrap();
        let tx = SafeTx::call("0x2222222222222222222222222222222222222222", "0xabcd", 3).unwrap();
        let hash = tx.hash(137, safe);
        let (sig, recovery) = key.sign_prehash_recoverable(&hash).unwrap();
        let mut raw = sig.to_bytes().to_vec();
        raw.push(27 + recovery.to_byte());
        assert_eq!(signer(hash, &hex0x(&raw)).unwrap(), owner);
        let other = SafeTx {
            nonce: 4,
            ..tx.clone()
        }
        .hash(137, safe);
        assert_ne!(signer(other, &hex0x(&raw)).unwrap(), owner);
        assert_ne!(tx.hash(80002, safe), hash, "the chain is part of the hash");
        // A personal_sign-style v (31/32) is not taken as a typed-data signature.
        raw[64] += 4;
        assert!(signer(hash, &hex0x(&raw)).is_err());
    }

    /// EIP-2: the twin (n − s, v flipped) recovers to the same owner; as for the wallet link,
    /// only the low-s form is kept.
    #[test]
    fn a_high_s_twin_is_refused() {
        use ethers_core::types::{Signature, U256};
        let key = SigningKey::from_slice(&[9u8; 32]).unwrap();
        let hash = SafeTx::call("0x2222222222222222222222222222222222222222", "0x", 0)
            .unwrap()
            .hash(137, Address::zero());
        let (sig, recovery) = key.sign_prehash_recoverable(&hash).unwrap();
        let mut raw = sig.to_bytes().to_vec();
        raw.push(27 + recovery.to_byte());
        let low = Signature::try_from(raw.as_slice()).unwrap();
        let n = U256::from_str_radix(
            "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141",
            16,
        )
        .unwrap();
        let high = Signature {
            r: low.r,
            s: n - low.s,
            v: if low.v == 27 { 28 } else { 27 },
        };
        let recovered = high.recover(RecoveryMessage::Hash(H256(hash))).unwrap();
        assert_eq!(recovered, secret_key_to_address(&key), "the twin recovers");
        assert!(signer(hash, &hex0x(&raw)).is_ok());
        assert!(signer(hash, &format!("0x{high}")).is_err());
    }

    #[test]
    fn signatures_are_packed_in_the_order_of_their_owners() {
        let tx = SafeTx::call("0x2222222222222222222222222222222222222222", "0x", 0).unwrap();
        let (low, high) = (Address::from_low_u64_be(1), Address::from_low_u64_be(2));
        let a = tx
            .exec_calldata(&[(high, vec![2; 65]), (low, vec![1; 65])])
            .unwrap();
        let b = tx
            .exec_calldata(&[(low, vec![1; 65]), (high, vec![2; 65])])
            .unwrap();
        assert_eq!(a, b);
        let at = a.find(&"01".repeat(65)).unwrap();
        assert!(at < a.find(&"02".repeat(65)).unwrap());
        assert_eq!(sent_by_owner(low)[31], 1);
        assert_eq!(sent_by_owner(low)[64], 1);
    }
}
