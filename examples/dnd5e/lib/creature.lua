-- Stat-block lines shared by monsters and characters: abilities, armor
-- class, speed, proficiencies, defences, senses and features. Every
-- function accepts SRD-shaped data and degrades to "" on anything else.
-- Globals as upvalues: a global is a table lookup on every use.
local type, tostring, pairs, ipairs, next = type, tostring, pairs, ipairs, next
local companion = require("companion")
local util = require("lib.util")
local text = require("lib.text")

local creature = {}

local signed = companion.format.signed

local ABILITIES = {
  { key = "strength", short = "STR", save = "Str", name = "Strength" },
  { key = "dexterity", short = "DEX", save = "Dex", name = "Dexterity" },
  { key = "constitution", short = "CON", save = "Con", name = "Constitution" },
  { key = "intelligence", short = "INT", save = "Int", name = "Intelligence" },
  { key = "wisdom", short = "WIS", save = "Wis", name = "Wisdom" },
  { key = "charisma", short = "CHA", save = "Cha", name = "Charisma" },
}
creature.ABILITIES = ABILITIES

-- abilities returns the six ability lines as a player reads them:
-- { "STR 8 (-1)", "DEX 14 (+2)", ... }; a missing score reads "STR —".
-- Plain strings, not tables: this runs for every monster view, and each
-- table would cost a conversion and a JSON object more.
function creature.abilities(data)
  local out = {}
  for i = 1, 6 do
    local a = ABILITIES[i]
    local score = data[a.key]
    if type(score) == "number" then
      local m = math.floor((score - 10) / 2)
      if m < 0 then
        out[i] = a.short .. " " .. score .. " (" .. m .. ")"
      else
        out[i] = a.short .. " " .. score .. " (+" .. m .. ")"
      end
    else
      out[i] = a.short .. " —"
    end
  end
  return out
end

local function lower_name(v)
  return util.name_of(v):lower()
end

-- armor_class formats the SRD armor_class list:
--   {natural 19}                      -> "19 (natural armor)"
--   {armor 15 [leather armor, shield]} -> "15 (leather armor, shield)"
--   {dex 12, spell 15 mage armor}      -> "12 (15 with mage armor)"
--   {natural 15, armor 17 [shield]}    -> "17 (natural armor, shield)"
--   {natural 14, condition 11 prone}   -> "14 (natural armor), 11 while prone"
-- A plain number (hand-written content) is printed as is.
function creature.armor_class(ac)
  if type(ac) == "number" then
    return tostring(ac)
  end
  if type(ac) == "string" then
    return ac
  end
  if type(ac) ~= "table" or ac == companion.null then
    return ""
  end
  if ac.value ~= nil then
    ac = { ac } -- a single entry instead of a list
  end
  local value, notes, extras = nil, {}, {}
  for i = 1, #ac do
    local entry = ac[i]
    if type(entry) == "number" then
      entry = { type = "dex", value = entry }
    end
    if type(entry) == "table" and util.number(entry.value) then
      local v, kind = entry.value, entry.type
      if kind == "spell" and value ~= nil then
        notes[#notes + 1] = v .. " with " .. lower_name(entry.spell)
      elseif kind == "condition" and value ~= nil then
        extras[#extras + 1] = v .. " while " .. lower_name(entry.condition)
      elseif kind == "condition" then
        value = v
        extras[#extras + 1] = "while " .. lower_name(entry.condition)
      else
        value = v
        if kind == "natural" then
          notes[#notes + 1] = "natural armor"
        elseif kind == "armor" then
          if type(entry.desc) == "string" and entry.desc ~= "" then
            notes[#notes + 1] = entry.desc
          end
          local pieces = util.list(entry.armor)
          for j = 1, #pieces do
            local piece = pieces[j]
            local n = lower_name(piece)
            if n ~= "" then
              notes[#notes + 1] = n
            end
          end
        elseif kind == "spell" then
          notes[#notes + 1] = lower_name(entry.spell)
        elseif type(entry.desc) == "string" and entry.desc ~= "" then
          notes[#notes + 1] = entry.desc
        end
      end
    end
  end
  if value == nil then
    return ""
  end
  local s = tostring(value)
  if #notes > 0 then
    s = s .. " (" .. table.concat(notes, ", ") .. ")"
  end
  for i = 1, #extras do
    local extra = extras[i]
    if extra:sub(1, 6) == "while " then
      s = s .. " " .. extra
    else
      s = s .. ", " .. extra
    end
  end
  return s
end

-- hit_points formats "7 (2d6)" or "135 (18d10 + 36)".
function creature.hit_points(data)
  local hp = util.number(data.hit_points)
  if hp == nil then
    return ""
  end
  local roll = data.hit_points_roll
  if type(roll) ~= "string" or roll == "" then
    roll = data.hit_dice
  end
  if type(roll) == "string" and roll ~= "" then
    return hp .. " (" .. util.dice_text(roll) .. ")"
  end
  return tostring(hp)
end

local function distance(v)
  if type(v) == "number" then
    return v .. " ft."
  elseif type(v) == "string" then
    return v
  end
  return nil
end

-- append_unlisted adds "<key> <distance>" for each distance key of tbl that
-- known does not list, in key order (underscores read as spaces), so data
-- with kinds of movement or senses the system does not name still shows.
local function append_unlisted(parts, tbl, known)
  local others = {}
  for key, v in pairs(tbl) do
    if type(key) == "string" and not known[key] and distance(v) then
      others[#others + 1] = key
    end
  end
  table.sort(others)
  for i = 1, #others do
    local key = others[i]
    parts[#parts + 1] = key:gsub("_", " ") .. " " .. distance(tbl[key])
  end
end

local SPEED_KEYS = { "burrow", "climb", "fly", "swim" }
local SPEED_KNOWN = { walk = true, hover = true, burrow = true, climb = true, fly = true, swim = true }

-- speed formats "30 ft., swim 30 ft." and "0 ft., fly 50 ft. (hover)".
function creature.speed(speed)
  local single = distance(speed)
  if single then
    return single
  end
  if type(speed) ~= "table" or speed == companion.null then
    return ""
  end
  local parts = {}
  for i = 1, #SPEED_KEYS do
    local key = SPEED_KEYS[i]
    local d = distance(speed[key])
    if d then
      if key == "fly" and speed.hover == true then
        d = d .. " (hover)"
      end
      parts[#parts + 1] = key .. " " .. d
    end
  end
  append_unlisted(parts, speed, SPEED_KNOWN)
  local walk = distance(speed.walk)
  if walk == nil then
    if #parts == 0 then
      return ""
    end
    walk = "0 ft."
  end
  table.insert(parts, 1, walk)
  return table.concat(parts, ", ")
end

local SAVE_NAMES = {}
for _, a in ipairs(ABILITIES) do
  SAVE_NAMES[a.short] = a.save
end

-- proficiencies splits SRD proficiencies into saving throws ("Dex +4,
-- Con +6") and skills ("Perception +13, Stealth +6"), in data order.
function creature.proficiencies(list)
  local saves, skills = {}, {}
  local items = util.list(list)
  for i = 1, #items do
    local p = items[i]
    if type(p) == "table" and util.number(p.value) then
      local name = util.name_of(p.proficiency)
      local bonus = signed(p.value)
      -- plain prefix tests: gopher-lua compiles a pattern on every call
      if name:sub(1, 14) == "Saving Throw: " then
        local save = name:sub(15)
        saves[#saves + 1] = (SAVE_NAMES[save:upper()] or save) .. " " .. bonus
      elseif name:sub(1, 7) == "Skill: " then
        skills[#skills + 1] = name:sub(8) .. " " .. bonus
      end
    end
  end
  return table.concat(saves, ", "), table.concat(skills, ", ")
end

-- damage_list joins damage types: plain ones with ", ", qualified ones
-- ("bludgeoning, piercing, and slashing from nonmagical weapons") after "; ".
function creature.damage_list(list)
  if type(list) ~= "table" or #list == 0 then
    return "" -- the common case: nothing to list
  end
  local simple, qualified = {}, {}
  local items = list
  for i = 1, #items do
    local v = items[i]
    local n = util.name_of(v)
    if n ~= "" then
      if n:find(",", 1, true) or n:find(" ", 1, true) then
        qualified[#qualified + 1] = n
      else
        simple[#simple + 1] = n:lower()
      end
    end
  end
  local s = table.concat(simple, ", ")
  for i = 1, #qualified do
    local q = qualified[i]
    if s == "" then
      s = q
    else
      s = s .. "; " .. q
    end
  end
  return s
end

-- conditions joins condition names in lower case: "exhaustion, poisoned".
function creature.conditions(list)
  if type(list) ~= "table" or #list == 0 then
    return ""
  end
  local out = {}
  local items = list
  for i = 1, #items do
    local v = items[i]
    local n = util.name_of(v)
    if n ~= "" then
      out[#out + 1] = n:lower()
    end
  end
  return table.concat(out, ", ")
end

local SENSE_KEYS = { "blindsight", "darkvision", "tremorsense", "truesight" }
local SENSE_KNOWN = { passive_perception = true, blindsight = true, darkvision = true, tremorsense = true, truesight = true }

-- senses formats "darkvision 60 ft., passive Perception 9".
function creature.senses(senses)
  if type(senses) == "string" then
    return senses
  end
  if type(senses) ~= "table" or senses == companion.null then
    return ""
  end
  local parts = {}
  for i = 1, #SENSE_KEYS do
    local key = SENSE_KEYS[i]
    local d = distance(senses[key])
    if d then
      parts[#parts + 1] = key .. " " .. d
    end
  end
  append_unlisted(parts, senses, SENSE_KNOWN)
  local pp = util.number(senses.passive_perception)
  if pp then
    parts[#parts + 1] = "passive Perception " .. pp
  end
  return table.concat(parts, ", ")
end

-- languages returns the languages line, "—" when the creature speaks none.
function creature.languages(v)
  local s = util.text(v)
  if type(v) == "table" then
    s = table.concat(util.names(v), ", ")
  end
  if s == "" then
    return "—"
  end
  return s
end

-- usage turns an SRD usage object into the suffix printed after a name:
-- "(3/Day)", "(Recharge 5–6)", "(Recharges after a Short or Long Rest)".
function creature.usage(u)
  if type(u) ~= "table" or u == companion.null then
    return ""
  end
  if u.type == "per day" and util.number(u.times) then
    return "(" .. u.times .. "/Day)"
  elseif u.type == "recharge on roll" then
    local top = 6
    if type(u.dice) == "string" then
      top = tonumber(u.dice:match("d(%d+)")) or 6
    end
    local min = util.number(u.min_value) or top
    if min >= top then
      return "(Recharge " .. top .. ")"
    end
    return "(Recharge " .. min .. "–" .. top .. ")"
  elseif u.type == "recharge after rest" then
    local rests = {}
    local types = util.list(u.rest_types)
    for i = 1, #types do
      rests[#rests + 1] = util.upper_first(util.text(types[i]))
    end
    if #rests == 0 then
      return "(Recharges after a Rest)"
    end
    return "(Recharges after a " .. table.concat(rests, " or ") .. " Rest)"
  elseif u.type == "at will" then
    return "(At Will)"
  end
  return ""
end

local find, byte = string.find, string.byte

-- is_plain_line reports whether a description is one plain paragraph:
-- no line break, no Markdown marker, no surrounding space. Most SRD
-- actions are; they skip lib/text.lua.
local function is_plain_line(s)
  local first, last = byte(s, 1), byte(s, -1)
  return first ~= nil and first > 32 and first ~= 124 and first ~= 45 and last > 32
    and not find(s, "\n", 1, true) and not find(s, "*", 1, true)
end

-- features formats special abilities, actions, reactions: each is
-- {name, text, blocks}: the usage appended to the name, the first
-- paragraph, and the blocks after it (only when there are some).
function creature.features(list)
  local out = {}
  if type(list) ~= "table" or #list == 0 then
    return out
  end
  local items = list
  for i = 1, #items do
    local f = items[i]
    if type(f) == "table" then
      local name = f.name
      if type(name) ~= "string" then
        name = util.text(name)
      end
      if f.usage ~= nil then
        local suffix = creature.usage(f.usage)
        if suffix ~= "" and not find(name, suffix, 1, true) then
          name = name .. " " .. suffix
        end
      end
      local desc = f.desc
      if type(desc) == "string" and is_plain_line(desc) then
        out[#out + 1] = { name = name, text = desc } -- the common case
      else
        local first, rest = text.lead_and_rest(desc)
        out[#out + 1] = { name = name, text = first, blocks = rest }
      end
    end
  end
  return out
end

-- spell_refs returns "spell.<slug>" for every spell a spellcasting
-- feature lists.
function creature.spell_refs(features, refs, seen)
  local items = util.list(features)
  for i = 1, #items do
    local f = items[i]
    if type(f) == "table" and type(f.spellcasting) == "table" then
      local spells = util.list(f.spellcasting.spells)
      for j = 1, #spells do
        local s = spells[j]
        local slug = util.ref_slug(s)
        if slug ~= "" and not seen[slug] then
          seen[slug] = true
          refs[#refs + 1] = "spell." .. slug
        end
      end
    end
  end
  return refs
end

return creature
