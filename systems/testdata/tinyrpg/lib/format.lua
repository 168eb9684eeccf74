-- Formatting helpers shared by the kinds.
local companion = require("companion")
local M = {}

function M.level(n)
  if n == nil or n == companion.null then return "Level ?" end
  return companion.format.ordinal(n) .. " level"
end

function M.speed(speed)
  local parts = {}
  for _, mode in ipairs({ "walk", "fly", "swim" }) do
    local v = speed[mode]
    if v ~= nil then
      if mode == "walk" then
        table.insert(parts, v .. " ft.")
      else
        table.insert(parts, mode .. " " .. v .. " ft.")
      end
    end
  end
  return companion.format.join(parts, ", ")
end

return M
