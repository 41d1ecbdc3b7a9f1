// Downloads are fetched first, so a failure shows its message in the
// page instead of a broken file in the browser's downloads.
import { flash } from "./flash.js";

document.addEventListener("click", (e) => {
  const a = e.target.closest?.("a[download]");
  if (!a || a.protocol === "blob:" || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  fetchDownload(a);
});

// A link that asked first (htmx: a PDF that may warn, a redirect map a
// platform may refuse) is answered with the download event when the file
// can be made: it is fetched as any download is.
document.addEventListener("download", (e) => {
  const a = e.target.closest?.("a[download]");
  if (a && a.isConnected) fetchDownload(a);
});

async function fetchDownload(a) {
  a.setAttribute("aria-busy", "true");
  try {
    const res = await fetch(a.href, { headers: { Accept: "application/json, */*;q=0.1" } });
    if (res.status === 413 && /\/diagram\/png(\?|$)/.test(a.pathname + a.search)) {
      window.location.assign(a.href); // a page that offers the SVG, the PDF or a branch
      return;
    }
    if (!res.ok) {
      let msg = `The download failed (${res.status}).`;
      try { msg = (await res.json()).error.message || msg; } catch { /* not JSON */ }
      flash(msg, true);
      return;
    }
    const name = /filename="?([^";]+)"?/.exec(res.headers.get("Content-Disposition") || "")?.[1] || a.getAttribute("download") || "download";
    const url = URL.createObjectURL(await res.blob());
    const tmp = document.createElement("a");
    tmp.href = url;
    tmp.download = decodeURIComponent(name);
    document.body.append(tmp);
    tmp.click();
    tmp.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  } catch {
    flash("The download failed: the server could not be reached.", true);
  } finally {
    a.removeAttribute("aria-busy");
  }
}
