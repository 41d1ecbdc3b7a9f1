// The sign-off form's button names what it approves: "Approve the whole
// plan of Version 2 “Client review”", or "Approve “Pricing” and the
// pages below it of …" once a branch is chosen, so nobody signs off more,
// or less, than they meant.

// approveWords is the button's text for a branch titled title ("" for
// the whole plan) of version (its label).
export function approveWords(title, version) {
  const what = title ? `“${title}” and the pages below it` : "the whole plan";
  return `Approve ${what} of ${version}`;
}

if (typeof document !== "undefined") {
  document.addEventListener("change", (e) => {
    const sel = e.target.closest?.("select[data-signoff]");
    const button = sel?.form?.querySelector("#approve-button");
    if (button) button.textContent = approveWords(sel.selectedOptions[0]?.dataset.title ?? "", sel.dataset.signoff);
  });
}
