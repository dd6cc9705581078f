//! The claim voucher the server signs and the ClaimDistributor recovers (EIP-712), and the
//! outgoing signer's consent to an announced signer change (`applySignerWithConsent`).

use ethers_core::abi::{self, Token};
use ethers_core::types::Address;

use crate::amount::Units;

/// A claim voucher (EIP-712, ClaimDistributor's `Claim(address account,uint256 cumulative,
/// uint256 deadline)` in the domain "LVLX Claims" version 1 on `chain_id` at `contract`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Voucher {
    pub chain_id: u64,
    pub contract: Address,
    pub account: Address,
    /// LVLX base units earned in all, ever.
    pub cumulative: Units,
    /// Seconds.
    pub deadline: u64,
}

fn word(t: Token) -> Vec<u8> {
    abi::encode(&[t])
}

/// The distributor's EIP-712 domain: "LVLX Claims" version 1 on `chain_id` at `contract`.
fn domain(chain_id: u64, contract: Address) -> [u8; 32] {
    use ethers_core::utils::keccak256;
    let domain_type = keccak256(
        "EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)",
    );
    keccak256(
        [
            word(Token::FixedBytes(domain_type.to_vec())),
            word(Token::FixedBytes(keccak256("LVLX Claims").to_vec())),
            word(Token::FixedBytes(keccak256("1").to_vec())),
            word(Token::Uint(chain_id.into())),
            word(Token::Address(contract)),
        ]
        .concat(),
    )
}

impl Voucher {
    /// The 32-byte digest the claim signer signs (and the contract recovers from).
    pub fn digest(&self) -> [u8; 32] {
        use ethers_core::utils::keccak256;
        let domain = domain(self.chain_id, self.contract);
        let claim_type = keccak256("Claim(address account,uint256 cumulative,uint256 deadline)");
        let claim = keccak256(
            [
                word(Token::FixedBytes(claim_type.to_vec())),
                word(Token::Address(self.account)),
                word(Token::Uint(self.cumulative.into())),
                word(Token::Uint(self.deadline.into())),
            ]
            .concat(),
        );
        keccak256([&[0x19, 0x01][..], &domain, &claim].concat())
    }
}

/// The outgoing signer's consent to the signer change the distributor announced `nonce`-th, for
/// `at` (EIP-712 `Rotation(address newSigner,uint256 at,uint256 nonce)` in the vouchers'
/// domain): with it the owner applies the change without waiting for a stretch of open claims (a
/// stolen key replaced while claims stay paused). Bound to that one announcement: the same
/// signer announced again for the same second has another nonce.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rotation {
    pub chain_id: u64,
    pub contract: Address,
    pub new_signer: Address,
    /// The announced change's `signerAt`, seconds.
    pub at: u64,
    /// The announcement's `signerNonce`.
    pub nonce: u64,
}

impl Rotation {
    /// The 32-byte digest the outgoing signer signs.
    pub fn digest(&self) -> [u8; 32] {
        use ethers_core::utils::keccak256;
        let domain = domain(self.chain_id, self.contract);
        let rotation = keccak256(
            [
                word(Token::FixedBytes(
                    keccak256("Rotation(address newSigner,uint256 at,uint256 nonce)").to_vec(),
                )),
                word(Token::Address(self.new_signer)),
                word(Token::Uint(self.at.into())),
                word(Token::Uint(self.nonce.into())),
            ]
            .concat(),
        );
        keccak256([&[0x19, 0x01][..], &domain, &rotation].concat())
    }
}
