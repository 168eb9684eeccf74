local companion = require("companion")
local fmt = require("lib.format")
local import = require("lib.import")

companion.system{
  config = { currency = "gp", dice = { "d4", "d6", "d20" } },
  settings = { showHidden = false },
}

companion.types("sizes", { "Small", "Medium", "Large" })

companion.entity("creature", {
  collection = "creatures",
  title = "Creature",
  collectionTitle = "Creatures",
  filters = { "level", "type" },
  ranges = { "hp" },
  references = function(e)
    local refs = {}
    for _, s in ipairs(e.data.spells or {}) do
      table.insert(refs, "spell." .. s)
    end
    return refs
  end,
  view = function(e)
    local d = e.data
    local abilities = {}
    for _, a in ipairs({ "str", "dex" }) do
      table.insert(abilities, { name = string.upper(a), score = d[a], mod = companion.format.modifier(d[a]) })
    end
    return {
      level = fmt.level(d.level),
      type = d.type,
      hp = d.hp .. " (" .. d.hit_dice .. ", avg " .. companion.dice.average(d.hit_dice) .. ")",
      speed = fmt.speed(d.speed),
      cr = companion.format.fraction(d.cr),
      xp = companion.format.number(d.xp),
      abilities = abilities,
      tags = companion.array(),
    }
  end,
})

companion.entity("hero", {
  collection = "heroes",
  unique = true,
  ranges = { "hp" },
  view = function(e)
    return { summary = e.name .. ", " .. fmt.level(e.data.level) }
  end,
})

-- Legacy compendium XML: <monster> entries become creatures.
companion.import.compendium("monster", import.monster)
