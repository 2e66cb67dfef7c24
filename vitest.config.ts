import { resolve } from "node:path";
import { configDefaults, defineConfig } from "vitest/config";

// examples/ import the package by its name, as a user does; tsconfig's `paths` map it to the
// source for tsc and tsx, and this alias does the same for vitest.
const PACKAGE_NAME_TO_SOURCE = {
  find: /^@cocoonstack\/cocoon-common(\/.*)?$/,
  replacement: resolve(import.meta.dirname, "src$1/index.ts"),
};

// Three projects, so unit tests never start a control plane or build the Go oracle.
//   npx vitest run --project unit          fast, no binaries needed
//   npx vitest run --project conformance   compares with Go itself (builds the oracle once)
//   npx vitest run --project integration   starts one etcd + kube-apiserver for all integration files
export default defineConfig({
  test: {
    reporters: ["default", "./test/summary-reporter.ts"],
    testTimeout: 30_000,
    coverage: { provider: "v8", include: ["src/**/*.ts"], exclude: ["src/**/*.test.ts", "src/**/*.test-d.ts"] },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["src/**/*.test.ts", "test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "test/integration/**", "test/conformance/**", "test/package/**"],
          typecheck: { enabled: true, include: ["src/**/*.test-d.ts", "test/**/*.test-d.ts"] },
        },
      },
      {
        extends: true,
        test: {
          // The hostile peers again, every GET and HEAD through the HTTP/1.1 client getBlob uses by default.
          name: "hostile-socket",
          include: ["test/hostile/**/*.test.ts"],
          env: { COCOON_HOSTILE_FETCH: "socket" },
        },
      },
      {
        extends: true,
        test: {
          name: "package",
          include: ["test/package/**/*.test.ts"],
          // Packs the package once, from a copy of the checkout without dist/ (prepack builds it).
          globalSetup: ["test/package/global-setup.ts"],
          testTimeout: 120_000,
          hookTimeout: 240_000,
        },
      },
      {
        extends: true,
        test: {
          name: "conformance",
          include: ["test/conformance/**/*.test.ts"],
          // Builds the Go oracle once (cached by source hash) before the workers start.
          globalSetup: ["test/conformance/global-setup.ts"],
          // Thousands of generated cases per property, compared with Go in one batch per test.
          testTimeout: 180_000,
        },
      },
      {
        extends: true,
        resolve: { alias: [PACKAGE_NAME_TO_SOURCE] },
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          // Builds the binaries on first use (minutes; globalSetup has no timeout), then starts the shared server.
          globalSetup: ["test/global-setup.ts"],
          // One shared API server on 2 cores: run files one after another so timings and request counts stay stable.
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
