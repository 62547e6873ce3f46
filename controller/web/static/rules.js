// What each violation rule of the game engine means, in the page's words: a page in another
// language than English shows this sentence under the rule's name (the engine's own message,
// with its particulars, is English: controller/game). Rule names as the API has them.
"use strict";

import { t } from "./i18n.js";

export function ruleWords(rule) {
  switch (rule) {
    case "abortive_draw": return t("Abortive draw: the hand ends without a winner, or this call is not allowed now.");
    case "bonus_discard": return t("A bonus tile cannot be discarded: lay it on the meld strip and draw a replacement.");
    case "claim_outranked": return t("Another player's claim on this discard ranks higher.");
    case "claim_too_late": return t("The claim came too late: the discard is gone or the next player has drawn.");
    case "dead_hand": return t("This hand is dead: no claims and no Mahjong for the rest of the hand.");
    case "discard_out_of_turn": return t("A tile was discarded out of turn.");
    case "draw_out_of_turn": return t("A tile was drawn out of turn.");
    case "fifth_copy": return t("All copies of that kind are already out: this tile was misread; correct it.");
    case "fifth_kong": return t("A fifth kong is not allowed.");
    case "furiten": return t("Furiten: this player cannot win on a discard now.");
    case "kuikae": return t("Kuikae: this tile may not be discarded right after the call.");
    case "last_tile_claim": return t("The wall is used up: the last discard may be claimed only to win.");
    case "last_tile_kong": return t("No kong on the last tile of the wall.");
    case "mahjong_incomplete_hand": return t("Mahjong was called with a hand that is not complete.");
    case "mahjong_without_yaku": return t("Mahjong was called with a hand that has no yaku.");
    case "no_hand": return t("No hand is in play.");
    case "no_session": return t("No session is running.");
    case "not_in_set": return t("A tile was read that is not in this game's set: take it off the table.");
    case "nothing_to_claim": return t("There is no discard to claim.");
    case "ready_not_waiting": return t("Ready was called with a hand that is not waiting.");
    case "riichi_hand_changed": return t("In riichi the hand may not change: discard the tile just drawn.");
    case "riichi_not_ready": return t("Riichi needs a hand that is one tile from complete.");
    case "riichi_open_hand": return t("Riichi needs a closed hand.");
    case "riichi_too_late": return t("Riichi needs at least four tiles left in the live wall.");
    case "session_over": return t("The session is over.");
    case "tile_not_there": return t("That tile is not where the move says it was.");
    case "tile_out_of_place": return t("A tile lies where it does not belong: put it back.");
    case "undo_too_far": return t("There is not that much to take back.");
    case "wall_empty": return t("The wall is empty.");
    case "wrong_tile_count": return t("A hand has the wrong number of tiles.");
    default: return null;
  }
}
