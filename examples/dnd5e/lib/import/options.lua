-- The character options of a Fight Club 5e compendium: races, classes
-- (with the features of each level), feats and backgrounds. Their data is
-- this system's own shape (documented in README.md and in the views,
-- lib/race.lua, lib/class.lua, lib/feat.lua, lib/background.lua).
local xml = require("lib.import.xml")
local monster = require("lib.import.monster")

local take, take_text, number, list = xml.take, xml.take_text, xml.number, xml.list

local options = {}

-- ability_bonuses: "Dex +2, Wis +1" -> { { ability = "DEX", bonus = 2 }, ... }.
local function ability_bonuses(s)
  local out = {}
  for name, value in s:gmatch("(%a+)%s*([+-]?%s*%d+)") do
    local short = xml.ABILITIES[name:lower()]
    if short then
      out[#out + 1] = { ability = short, bonus = xml.tonum((value:gsub("%s+", ""))) }
    end
  end
  return out
end

-- common reads what every option may have: proficiencies, tools,
-- armor, weapons, languages, and the source lines of its texts.
local function common(el, data)
  for _, key in ipairs({ "proficiency", "armor", "weapons", "tools", "languages" }) do
    local v = take_text(el, key)
    if v ~= "" then
      data[key == "proficiency" and "proficiencies" or key] = v
    end
  end
end

local function entity(kind, el, data, sources)
  local name = take_text(el, "name")
  local slug = take_text(el, "slug")
  xml.compact(data)
  data.index = slug ~= "" and slug or xml.slug(name)
  return {
    kind = kind,
    name = name,
    slug = slug ~= "" and slug or nil,
    image = take_text(el, "image"),
    data = data,
    sources = xml.sources(take_text(el, "source"), sources),
  }
end

-- modifiers: <modifier category="bonus">speed +10</modifier> as { category, text }.
local function modifiers(v)
  local out = {}
  for _, m in ipairs(list(v)) do
    local mod = { text = xml.text(m) }
    if type(m) == "table" and type(m._attr) == "table" then
      mod.category = m._attr.category
    end
    out[#out + 1] = mod
  end
  return out
end

function options.race(el)
  local sources = {}
  local data = {}
  local display = take_text(el, "displayname")
  if display ~= "" then
    data.display_name = display
  end
  data.ancestry = take_text(el, "ancestry")
  data.size = xml.size(take(el, "size"))
  data.speed = number(take(el, "speed"))
  local other = take_text(el, "speedOther")
  if other ~= "" then
    data.speed_other = other
  end
  data.ability_bonuses = ability_bonuses(take_text(el, "ability"))
  data.spell_ability = take_text(el, "spellAbility")
  common(el, data)
  data.damage_resistances = monster.damage_list(take_text(el, "resist"))
  data.damage_vulnerabilities = monster.damage_list(take_text(el, "vulnerable"))
  data.damage_immunities = monster.damage_list(take_text(el, "immune"))
  data.condition_immunities = xml.split(take_text(el, "conditionImmune"), ",;")
  data.condition_resistances = xml.split(take_text(el, "conditionResist"), ",;")
  data.spells = take_text(el, "spells")
  data.traits = monster.features(take(el, "trait"), sources)
  data.modifiers = modifiers(take(el, "modifier"))
  return entity("race", el, data, sources)
end

-- level: one <autolevel>: its features, spell slots and counters.
local function level(a, sources)
  local attr = type(a) == "table" and type(a._attr) == "table" and a._attr or {}
  local out = { level = xml.tonum(attr.level or "") or 0 }
  if xml.yes(attr.scoreImprovement) then
    out.score_improvement = true
  end
  if type(a) ~= "table" then
    return out
  end
  out.features = {}
  for _, f in ipairs(monster.features(take(a, "feature"), sources)) do
    if type(f._attr) == "table" then
      f.optional = xml.yes(f._attr.optional)
      f._attr.optional = nil
      if next(f._attr) == nil then
        f._attr = nil
      end
    end
    out.features[#out.features + 1] = f
  end
  local slots = xml.text(take(a, "slots"))
  if slots ~= "" then
    out.slots = {}
    for i, n in ipairs(xml.split(slots, ",")) do
      out.slots[i] = xml.tonum(n) or 0
    end
  end
  local counters = {}
  for _, c in ipairs(list(take(a, "counter"))) do
    if type(c) == "table" then
      local sub = xml.take_text(c, "subclass")
      counters[#counters + 1] = {
        name = xml.take_text(c, "name"),
        value = xml.take_text(c, "value"),
        reset = xml.take_text(c, "reset"),
        subclass = sub ~= "" and sub or nil,
      }
    end
  end
  if #counters > 0 then
    out.counters = counters
  end
  -- Anything else the level held: kept.
  for k, v in pairs(a) do
    if k ~= "_attr" and out[k] == nil then
      out[k] = v
    end
  end
  return out
end

function options.class(el)
  local sources = {}
  local data = {}
  data.hit_die = number(take(el, "hd"))
  data.num_skills = number(take(el, "numSkills"))
  data.wealth = take_text(el, "wealth")
  data.spell_ability = take_text(el, "spellAbility")
  data.slots_reset = take_text(el, "slotsReset")
  common(el, data)
  data.traits = monster.features(take(el, "trait"), sources)
  local levels = {}
  for _, a in ipairs(list(take(el, "autolevel"))) do
    levels[#levels + 1] = level(a, sources)
  end
  -- Several <autolevel> may give the same level (features, then slots):
  -- one entry per level, in order.
  local by = {}
  local merged = {}
  for _, l in ipairs(levels) do
    local into = by[l.level]
    if not into then
      into = { level = l.level, features = {} }
      by[l.level] = into
      merged[#merged + 1] = into
    end
    for _, f in ipairs(l.features or {}) do
      into.features[#into.features + 1] = f
    end
    into.slots = into.slots or l.slots
    into.score_improvement = into.score_improvement or l.score_improvement
    if l.counters then
      into.counters = into.counters or {}
      for _, c in ipairs(l.counters) do
        into.counters[#into.counters + 1] = c
      end
    end
  end
  table.sort(merged, function(a, b) return a.level < b.level end)
  data.levels = merged
  return entity("class", el, data, sources)
end

function options.feat(el)
  local sources = {}
  local data = {}
  data.prerequisite = take_text(el, "prerequisite")
  data.desc = xml.paragraphs(take(el, "text"), sources)
  common(el, data)
  data.special = take_text(el, "special")
  data.modifiers = modifiers(take(el, "modifier"))
  local rolls = xml.rolls(take(el, "roll"))
  if #rolls > 0 then
    data.rolls = rolls
  end
  return entity("feat", el, data, sources)
end

function options.background(el)
  local sources = {}
  local data = {}
  common(el, data)
  data.traits = monster.features(take(el, "trait"), sources)
  data.modifiers = modifiers(take(el, "modifier"))
  return entity("background", el, data, sources)
end

return options
