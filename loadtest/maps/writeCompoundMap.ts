import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { compoundLevel } from "./compoundLevel.js";
import { formatTiledMap } from "./tiledMapJson.js";

/**
 * Writes `server/maps/compound.tmj` from {@link compoundLevel} (`npx tsx loadtest/maps/writeCompoundMap.ts`).
 * The file is committed so the server loads it like any hand-drawn map; a test fails when it and the
 * generator disagree, so change the generator and run this rather than editing the file.
 */
const target = fileURLToPath(new URL("../../server/maps/compound.tmj", import.meta.url));
writeFileSync(target, formatTiledMap(compoundLevel()));
console.log(`wrote ${target}`);
