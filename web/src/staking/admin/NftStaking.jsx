// admin/tables/NFTStaking: the staking screen for NFT stakes.
import StakingScreen from './StakingScreen.jsx';

export default function NftStaking() {
  return <StakingScreen kind="nft" />;
}
