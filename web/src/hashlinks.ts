// For the page at `/`: the explorer used to live there with hash links (`/#/researcher/ID`);
// such a link now opens the explorer's own address for it. Load it with
// <script src="/explorer/hashlinks.js"></script> (early, so the old link never shows the page).
import { fromHashLink } from "./routes";

const address = fromHashLink(location.hash);
if (address) location.replace(address);
