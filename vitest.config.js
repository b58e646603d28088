import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Only our own tests: never crawl .venv/ or node_modules/.
    include: ["js/**/*.test.js"],
    environment: "node",
  },
});
