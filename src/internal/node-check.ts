// The build makes this module the first import of every entry point (tsup.config.ts),
// so that it is evaluated before anything else the entry loads.
import { checkNode } from "./supported-node.js";

checkNode();
