-- Fairy rules files (*.rules) in Neovim: filetype, comments and the fairy language server.
-- Put this in your config (e.g. ~/.config/nvim/plugin/fairy.lua); `fairy` must be on PATH.

-- Neovim 0.7 has vim.filetype.add but ignores it unless filetype.lua is switched on, so it
-- gets an autocommand instead. Both win over Neovim's own guess for *.rules (udev or hog
-- rules), so other .rules files are taken for fairy too.
if vim.fn.has("nvim-0.8") == 1 then
  vim.filetype.add({ extension = { rules = "fairy" } })
else
  vim.api.nvim_create_autocmd({ "BufRead", "BufNewFile" }, {
    pattern = "*.rules",
    callback = function() vim.bo.filetype = "fairy" end,
  })
end

-- Neovim 0.7 has no vim.lsp.start: one client is started by hand and shared by all buffers.
local client_id_0_7

vim.api.nvim_create_autocmd("FileType", {
  pattern = "fairy",
  callback = function(args)
    vim.bo[args.buf].commentstring = "// %s"
    local name = vim.api.nvim_buf_get_name(args.buf)
    if vim.lsp.start then
      -- Reuses the running client for further files of the same directory.
      vim.lsp.start(
        { name = "fairy", cmd = { "fairy", "lsp" }, root_dir = vim.fs.dirname(name) },
        { bufnr = args.buf }
      )
    else
      -- Restarted if it has exited, e.g. after fairy was missing and has since been installed.
      if not (client_id_0_7 and vim.lsp.get_client_by_id(client_id_0_7)) then
        client_id_0_7 = vim.lsp.start_client({
          name = "fairy",
          cmd = { "fairy", "lsp" },
          root_dir = vim.fn.fnamemodify(name, ":p:h"),
        })
      end
      if client_id_0_7 then vim.lsp.buf_attach_client(args.buf, client_id_0_7) end
    end
  end,
})
