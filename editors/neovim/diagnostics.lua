-- Used by cli/tests/neovim.rs: opens the file given in FAIRY_TEST_FILE with editors/neovim/fairy.lua
-- loaded, waits for the language server's diagnostics, and writes them one per line to
-- FAIRY_TEST_OUTPUT, as `line:column severity code message` (the message's first line).
vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("FAIRY_TEST_FILE")))
vim.wait(15000, function() return #vim.diagnostic.get(0) > 0 end, 20)
local lines = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or "?"
  local first = d.message:gsub("\n.*", "")
  table.insert(lines, string.format("%d:%d %d %s %s", d.lnum + 1, d.col + 1, d.severity, code, first))
end
local out = assert(io.open(os.getenv("FAIRY_TEST_OUTPUT"), "w"))
out:write(table.concat(lines, "\n"), "\n")
out:close()
vim.cmd("qa!")
