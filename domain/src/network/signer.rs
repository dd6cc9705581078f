//! The claim signer: the server's secp256k1 key that signs EIP-712 claim vouchers (the digest is
//! the core's). It is never printed, logged or sent; only its address is shown.

use ethers_core::k256::ecdsa::SigningKey;
use ethers_core::types::Address;
use lvlx_core::chain::{Rotation, Voucher};

use crate::crypto::KeyError;

#[derive(Clone)]
pub struct ClaimSigner {
    key: SigningKey,
    address: Address,
}

impl std::fmt::Debug for ClaimSigner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ClaimSigner({})", self.address())
    }
}

impl ClaimSigner {
    pub fn new(secret: &[u8]) -> Result<ClaimSigner, KeyError> {
        let key = SigningKey::from_slice(secret).map_err(|_| KeyError::ClaimKey)?;
        let address = ethers_core::utils::secret_key_to_address(&key);
        Ok(ClaimSigner { key, address })
    }

    /// EIP-55.
    pub fn address(&self) -> String {
        ethers_core::utils::to_checksum(&self.address, None)
    }

    /// The voucher's 65-byte signature (r ‖ s ‖ v, v = 27 or 28; s in the lower half, as
    /// OpenZeppelin's ECDSA demands), 0x-hex.
    pub fn sign(&self, voucher: &Voucher) -> String {
        self.sign_digest(voucher.digest())
    }

    /// This key's consent, as the outgoing signer, to the announced signer change `rotation`
    /// (`applySignerWithConsent`): the same signature form as a voucher's.
    pub fn sign_rotation(&self, rotation: &Rotation) -> String {
        self.sign_digest(rotation.digest())
    }

    fn sign_digest(&self, digest: [u8; 32]) -> String {
        let (sig, recovery) = self
            .key
            .sign_prehash_recoverable(&digest)
            .expect("a 32-byte digest always signs");
        let mut bytes = sig.to_bytes().to_vec();
        bytes.push(27 + recovery.to_byte());
        lvlx_core::chain::hex0x(&bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ethers_core::types::Signature;

    #[test]
    fn a_voucher_signature_recovers_to_the_signer_and_names_nothing_secret() {
        let signer = ClaimSigner::new(&[7u8; 32]).unwrap();
        let voucher = Voucher {
            chain_id: 137,
            contract: Address::repeat_byte(0x11),
            account: Address::repeat_byte(0x22),
            cumulative: 5,
            deadline: 1_800_000_000,
        };
        let text = signer.sign(&voucher);
        let sig: Signature = text.parse().unwrap();
        let recovered = sig
            .recover(ethers_core::types::H256(voucher.digest()))
            .unwrap();
        assert_eq!(
            ethers_core::utils::to_checksum(&recovered, None),
            signer.address()
        );
        // It shows its address and nothing more (no key bytes, in hex or as numbers).
        let shown = format!("{signer:?}");
        assert_eq!(shown, format!("ClaimSigner({})", signer.address()));
        assert!(!shown.contains("0707") && !shown.contains("[7"), "{shown}");
    }
}
