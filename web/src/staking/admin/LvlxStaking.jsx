// admin/tables/LVLXStaking: the staking screen for LVLX stakes.
import StakingScreen from './StakingScreen.jsx';

export default function LvlxStaking() {
  return <StakingScreen kind="lvlx" />;
}
