// SVG elements made in one place, for every module that draws.

export const SVG = "http://www.w3.org/2000/svg";

// A new SVG element `name` with `attrs`, appended to `parent` when one is given.
export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}
