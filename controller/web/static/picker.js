// A tile picker: every kind of tile as a button, grouped as people sort them (from the
// service's tile set). pickTile(onPick, {selected, bonus}) -> element.
"use strict";

import { h, t } from "./common.js";
import { TILE_SET, tile, tileName } from "./tiles.js";

// One row each: the three suits, the honours, the bonus tiles.
const ROWS = [["bamboo"], ["characters"], ["dots"], ["winds", "dragons"], ["flowers", "seasons"]];

export function pickTile(onPick, { selected = null, bonus = true, label = null } = {}) {
  const box = h("div", { class: "picker", role: "listbox", "aria-label": label || t("tile") });
  for (const groups of ROWS) {
    if (!bonus && groups[0] === "flowers") continue;
    const row = h("div", { class: "picker-row" });
    for (const code of groups.flatMap((g) => (TILE_SET.groups || {})[g] || [])) {
      const button = h("button", {
        type: "button", class: "pick" + (code === selected ? " chosen" : ""), "data-tile": code,
        title: tileName(code), "aria-label": tileName(code), "aria-selected": code === selected ? "true" : "false",
        onclick: () => {
          for (const b of box.querySelectorAll(".pick.chosen")) {
            b.classList.remove("chosen");
            b.setAttribute("aria-selected", "false");
          }
          button.classList.add("chosen");
          button.setAttribute("aria-selected", "true");
          onPick(code);
        },
      }, tile(code));
      row.appendChild(button);
    }
    box.appendChild(row);
  }
  return box;
}
