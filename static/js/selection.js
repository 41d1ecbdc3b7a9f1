// The selected page as the canvas knows it. In the outline the focused
// title is the selection; while the canvas has the keyboard the focus
// stays there, and picked says which page is selected.
export const selection = {
  picked: null, // the selected page's id
  reveal: false, // bring it into view once it is drawn
};
