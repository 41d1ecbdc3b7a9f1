// siteplan's front end. htmx does the requests and swaps; each module
// here wires one behaviour of the page to it and owns its state (the
// architecture document has the map). Importing them is all it takes.
import "./flash.js";
import "./typecolors.js";
import "./dialogs.js";
import "./downloads.js";
import "./steady.js";
import "./panes.js";
import "./summary.js";
import "./details.js";
import "./rows.js";
import "./counter.js";
import "./signoff.js";
import "./tasktimer.js";
import "./pitch.js";
import "./mention.js";
import "./searchnav.js";
import "./tree.js";
import "./more.js";
import "./outline.js";
import "./outliner.js";
import "./titles.js";
import "./drag.js";
import "./undo.js";
import "./diagram.js";
import "./canvas.js";
import "./live.js";

// Every behaviour is wired: say so (tests wait for it before they press).
document.documentElement.dataset.script = "ready";
