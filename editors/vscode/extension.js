// The language support itself lives in `fairy lsp`; this extension only starts it, so that
// VS Code, Neovim and Helix all get the same diagnostics, completion and formatting.
// Plain CommonJS on purpose: the folder installs as it is, without a build step.
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

async function activate() {
  // Read once: a changed fairy.path takes effect after "Developer: Reload Window".
  const command = vscode.workspace.getConfiguration("fairy").get("path") || "fairy";
  const serverOptions = { command, args: ["lsp"], transport: TransportKind.stdio };
  const clientOptions = {
    // Files only, so that diff views of older versions (git: and similar schemes) do not
    // get a second set of diagnostics for the same file.
    documentSelector: [{ scheme: "file", language: "fairy-rules" }],
  };
  client = new LanguageClient("fairy", "Fairy rules", serverOptions, clientOptions);
  try {
    await client.start();
  } catch (error) {
    // The client's own message does not say how to fix the usual cause, a missing command.
    vscode.window.showErrorMessage(
      `Could not start "${command} lsp": ${error.message}. Put fairy on PATH or set fairy.path.`,
    );
  }
}

function deactivate() {
  // The client refuses to stop a server that never started, which would make deactivation fail.
  return client && client.isRunning() ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
