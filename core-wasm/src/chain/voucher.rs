//! The claim voucher the server signs and the ClaimDistributor recovers (EIP-712).

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

impl Voucher {
    /// The 32-byte digest the claim signer signs (and the contract recovers from).
    pub fn digest(&self) -> [u8; 32] {
        use ethers_core::utils::keccak256;
        let word = |t: Token| abi::encode(&[t]);
        let domain_type = keccak256(
            "EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)",
        );
        let domain = keccak256(
            [
                word(Token::FixedBytes(domain_type.to_vec())),
                word(Token::FixedBytes(keccak256("LVLX Claims").to_vec())),
                word(Token::FixedBytes(keccak256("1").to_vec())),
                word(Token::Uint(self.chain_id.into())),
                word(Token::Address(self.contract)),
            ]
            .concat(),
        );
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
