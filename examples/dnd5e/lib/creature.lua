-- Stat-block lines shared by monsters and characters: abilities, armor
-- class, speed, proficiencies, defences, senses and features. Every
-- function accepts SRD-shaped data and degrades to "" on anything else.
-- Globals as upvalues: a global is a table lookup on every use.
local type, tostring, pairs, ipairs, next = type, tostring, pairs, ipairs, next
local companion = require("companion")
local util = require("lib.util")
local text = require("lib.text")

local creature = {}

-- Everything a view calls is a local: a call through a module table
-- (util.text, companion.format.signed, math.floor) reads it through the
-- module's read-only proxy, two lookups more per call, and these run for
-- every monster view.
local null = companion.null
local signed = companion.format.signed
local text_of, name_of, list_of, names_of = util.text, util.name_of, util.list, util.names
local dice_text, upper_first = util.dice_text, util.upper_first
local lead_and_rest = text.lead_and_rest
local floor = math.floor
local concat, sort = table.concat, table.sort
local find, byte, sub, upper, lower = string.find, string.byte, string.sub, string.upper, string.lower

local ABILITIES = {
  { key = "strength", short = "STR", save = "Str", name = "Strength" },
  { key = "dexterity", short = "DEX", save = "Dex", name = "Dexterity" },
  { key = "constitution", short = "CON", save = "Con", name = "Constitution" },
  { key = "intelligence", short = "INT", save = "Int", name = "Intelligence" },
  { key = "wisdom", short = "WIS", save = "Wis", name = "Wisdom" },
  { key = "charisma", short = "CHA", save = "Cha", name = "Charisma" },
}
creature.ABILITIES = ABILITIES

-- ability_line is one ability as a player reads it: "STR 8 (-1)".
local function ability_line(short, score)
  if type(score) == "number" then
    local m = floor((score - 10) / 2)
    if m < 0 then
      return short .. " " .. score .. " (" .. m .. ")"
    end
    return short .. " " .. score .. " (+" .. m .. ")"
  end
  return short .. " —"
end

-- abilities returns the six ability lines as a player reads them:
-- { "STR 8 (-1)", "DEX 14 (+2)", ... }; a missing score reads "STR —".
-- Plain strings, not tables: this runs for every monster view, and each
-- table would cost a conversion and a JSON object more. (Spelt out rather
-- than looped over ABILITIES: the constructor sizes the list once.)
function creature.abilities(data)
  return {
    ability_line("STR", data.strength),
    ability_line("DEX", data.dexterity),
    ability_line("CON", data.constitution),
    ability_line("INT", data.intelligence),
    ability_line("WIS", data.wisdom),
    (ability_line("CHA", data.charisma)),
  }
end

local function lower_name(v)
  return lower(name_of(v))
end

-- add appends v to list, making the list on the first one: most stat
-- blocks have no note or extra at all.
local function add(list, v)
  if list == nil then
    return { v }
  end
  list[#list + 1] = v
  return list
end

-- armor_class formats the SRD armor_class list:
--   {natural 19}                      -> "19 (natural armor)"
--   {armor 15 [leather armor, shield]} -> "15 (leather armor, shield)"
--   {dex 12, spell 15 mage armor}      -> "12 (15 with mage armor)"
--   {natural 15, armor 17 [shield]}    -> "17 (natural armor, shield)"
--   {natural 14, condition 11 prone}   -> "14 (natural armor), 11 while prone"
-- A plain number (hand-written content) is printed as is.
function creature.armor_class(ac)
  local t = type(ac)
  if t == "number" then
    return tostring(ac)
  end
  if t == "string" then
    return ac
  end
  if t ~= "table" or ac == null then
    return ""
  end
  if ac.value ~= nil then
    ac = { ac } -- a single entry instead of a list
  end
  local value, notes, extras = nil, nil, nil
  for i = 1, #ac do
    local entry = ac[i]
    if type(entry) == "number" then
      entry = { type = "dex", value = entry }
    end
    if type(entry) == "table" and type(entry.value) == "number" then
      local v, kind = entry.value, entry.type
      if kind == "spell" and value ~= nil then
        notes = add(notes, v .. " with " .. lower_name(entry.spell))
      elseif kind == "condition" and value ~= nil then
        extras = add(extras, v .. " while " .. lower_name(entry.condition))
      elseif kind == "condition" then
        value = v
        extras = add(extras, "while " .. lower_name(entry.condition))
      else
        value = v
        if kind == "natural" then
          notes = add(notes, "natural armor")
        elseif kind == "armor" then
          local desc = entry.desc
          if type(desc) == "string" and desc ~= "" then
            notes = add(notes, desc)
          end
          local pieces = list_of(entry.armor)
          for j = 1, #pieces do
            local n = lower_name(pieces[j])
            if n ~= "" then
              notes = add(notes, n)
            end
          end
        elseif kind == "spell" then
          notes = add(notes, lower_name(entry.spell))
        else
          local desc = entry.desc
          if type(desc) == "string" and desc ~= "" then
            notes = add(notes, desc)
          end
        end
      end
    end
  end
  if value == nil then
    return ""
  end
  local s = tostring(value)
  if notes ~= nil then
    if #notes == 1 then
      s = s .. " (" .. notes[1] .. ")"
    else
      s = s .. " (" .. concat(notes, ", ") .. ")"
    end
  end
  if extras ~= nil then
    for i = 1, #extras do
      local extra = extras[i]
      if sub(extra, 1, 6) == "while " then
        s = s .. " " .. extra
      else
        s = s .. ", " .. extra
      end
    end
  end
  return s
end

-- hit_points formats "7 (2d6)" or "135 (18d10 + 36)".
function creature.hit_points(data)
  local hp = data.hit_points
  if type(hp) ~= "number" then
    return ""
  end
  local roll = data.hit_points_roll
  if type(roll) ~= "string" or roll == "" then
    roll = data.hit_dice
  end
  if type(roll) == "string" and roll ~= "" then
    return hp .. " (" .. dice_text(roll) .. ")"
  end
  return tostring(hp)
end

local function distance(v)
  local t = type(v)
  if t == "number" then
    return v .. " ft."
  elseif t == "string" then
    return v
  end
  return nil
end

-- also appends piece to the ", "-separated line s (nil when empty): what
-- table.concat(parts, ", ") gives, without the table.
local function also(s, piece)
  if s == nil then
    return piece
  end
  return s .. ", " .. piece
end

-- append_unlisted adds "<key> <distance>" to the line s for each distance
-- key of tbl that known does not list, in key order (underscores read as
-- spaces), so data with kinds of movement or senses the system does not
-- name still shows.
local function append_unlisted(s, tbl, known)
  local others
  for key, v in pairs(tbl) do
    if type(key) == "string" and not known[key] and distance(v) then
      others = add(others, key)
    end
  end
  if others == nil then
    return s
  end
  sort(others)
  for i = 1, #others do
    local key = others[i]
    s = also(s, key:gsub("_", " ") .. " " .. distance(tbl[key]))
  end
  return s
end

local SPEED_KNOWN = { walk = true, hover = true, burrow = true, climb = true, fly = true, swim = true }

-- speed formats "30 ft., swim 30 ft." and "0 ft., fly 50 ft. (hover)".
function creature.speed(speed)
  local single = distance(speed)
  if single then
    return single
  end
  if type(speed) ~= "table" or speed == null then
    return ""
  end
  -- (Absent keys, the usual case, are tested before calling distance.)
  local s -- the line after the walking speed (nil: nothing yet)
  local v = speed.burrow
  local d = v ~= nil and distance(v)
  if d then
    s = "burrow " .. d
  end
  v = speed.climb
  d = v ~= nil and distance(v)
  if d then
    s = also(s, "climb " .. d)
  end
  v = speed.fly
  d = v ~= nil and distance(v)
  if d then
    if speed.hover == true then
      d = d .. " (hover)"
    end
    s = also(s, "fly " .. d)
  end
  v = speed.swim
  d = v ~= nil and distance(v)
  if d then
    s = also(s, "swim " .. d)
  end
  s = append_unlisted(s, speed, SPEED_KNOWN)
  v = speed.walk
  local walk = v ~= nil and distance(v) or nil
  if walk == nil then
    if s == nil then
      return ""
    end
    walk = "0 ft."
  end
  if s == nil then
    return walk
  end
  return walk .. ", " .. s
end

local SAVE_NAMES = {}
for _, a in ipairs(ABILITIES) do
  SAVE_NAMES[a.short] = a.save
end

-- proficiencies splits SRD proficiencies into saving throws ("Dex +4,
-- Con +6") and skills ("Perception +13, Stealth +6"), in data order.
function creature.proficiencies(list)
  if type(list) ~= "table" or list == null then
    return "", ""
  end
  local saves, skills = "", ""
  for i = 1, #list do
    local p = list[i]
    if type(p) == "table" and type(p.value) == "number" then
      local name = name_of(p.proficiency)
      -- plain prefix tests: gopher-lua compiles a pattern on every call
      if find(name, "Saving Throw: ", 1, true) == 1 then
        local save = sub(name, 15)
        local piece = (SAVE_NAMES[upper(save)] or save) .. " " .. signed(p.value)
        saves = saves == "" and piece or saves .. ", " .. piece
      elseif find(name, "Skill: ", 1, true) == 1 then
        local piece = sub(name, 8) .. " " .. signed(p.value)
        skills = skills == "" and piece or skills .. ", " .. piece
      end
    end
  end
  return saves, skills
end

-- damage_list joins damage types: plain ones with ", ", qualified ones
-- ("bludgeoning, piercing, and slashing from nonmagical weapons") after "; ".
function creature.damage_list(list)
  if type(list) ~= "table" or #list == 0 then
    return "" -- the common case: nothing to list
  end
  local simple, qualified = "", nil
  for i = 1, #list do
    local n = name_of(list[i])
    if n ~= "" then
      if find(n, ",", 1, true) or find(n, " ", 1, true) then
        qualified = add(qualified, n)
      else
        n = lower(n)
        simple = simple == "" and n or simple .. ", " .. n
      end
    end
  end
  local s = simple
  if qualified ~= nil then
    for i = 1, #qualified do
      local q = qualified[i]
      if s == "" then
        s = q
      else
        s = s .. "; " .. q
      end
    end
  end
  return s
end

-- conditions joins condition names in lower case: "exhaustion, poisoned".
function creature.conditions(list)
  if type(list) ~= "table" or #list == 0 then
    return ""
  end
  local s = ""
  for i = 1, #list do
    local n = name_of(list[i])
    if n ~= "" then
      n = lower(n)
      s = s == "" and n or s .. ", " .. n
    end
  end
  return s
end

local SENSE_KNOWN = { passive_perception = true, blindsight = true, darkvision = true, tremorsense = true, truesight = true }

-- senses formats "darkvision 60 ft., passive Perception 9".
function creature.senses(senses)
  local t = type(senses)
  if t == "string" then
    return senses
  end
  if t ~= "table" or senses == null then
    return ""
  end
  local s -- nil: nothing yet
  local v = senses.blindsight
  local d = v ~= nil and distance(v)
  if d then
    s = "blindsight " .. d
  end
  v = senses.darkvision
  d = v ~= nil and distance(v)
  if d then
    s = also(s, "darkvision " .. d)
  end
  v = senses.tremorsense
  d = v ~= nil and distance(v)
  if d then
    s = also(s, "tremorsense " .. d)
  end
  v = senses.truesight
  d = v ~= nil and distance(v)
  if d then
    s = also(s, "truesight " .. d)
  end
  s = append_unlisted(s, senses, SENSE_KNOWN)
  local pp = senses.passive_perception
  if type(pp) == "number" then
    s = also(s, "passive Perception " .. pp)
  end
  return s or ""
end

-- languages returns the languages line, "—" when the creature speaks none.
function creature.languages(v)
  local s
  if type(v) == "table" then
    s = concat(names_of(v), ", ")
  else
    s = text_of(v)
  end
  if s == "" then
    return "—"
  end
  return s
end

-- usage turns an SRD usage object into the suffix printed after a name:
-- "(3/Day)", "(Recharge 5–6)", "(Recharges after a Short or Long Rest)".
local function usage(u)
  if type(u) ~= "table" or u == null then
    return ""
  end
  local kind = u.type
  if kind == "per day" and type(u.times) == "number" then
    return "(" .. u.times .. "/Day)"
  elseif kind == "recharge on roll" then
    local top = 6
    if type(u.dice) == "string" then
      top = tonumber(u.dice:match("d(%d+)")) or 6
    end
    local min = u.min_value
    if type(min) ~= "number" then
      min = top
    end
    if min >= top then
      return "(Recharge " .. top .. ")"
    end
    return "(Recharge " .. min .. "–" .. top .. ")"
  elseif kind == "recharge after rest" then
    local rests = {}
    local types = list_of(u.rest_types)
    for i = 1, #types do
      rests[#rests + 1] = upper_first(text_of(types[i]))
    end
    if #rests == 0 then
      return "(Recharges after a Rest)"
    end
    return "(Recharges after a " .. concat(rests, " or ") .. " Rest)"
  elseif kind == "at will" then
    return "(At Will)"
  end
  return ""
end
creature.usage = usage

-- rolls formats the rolls an imported text offers (data: { name, dice,
-- level, attack_bonus }, see lib/import/xml.lua) as { label, text,
-- formula } lines: "Bite: +4 to hit, 1d10 + 2"; rolls of one name at
-- several levels share a line: "Acid Damage: 1d6; 2d6 at 5th level".
function creature.rolls(list)
  if type(list) ~= "table" or #list == 0 then
    return {}
  end
  local out, by = {}, {}
  for i = 1, #list do
    local r = list[i]
    if type(r) == "table" then
      local label = text_of(r.name)
      if label == "" then
        label = "Roll"
      end
      local piece = ""
      if type(r.attack_bonus) == "number" then
        piece = signed(r.attack_bonus) .. " to hit"
      end
      local dice = text_of(r.dice)
      if dice ~= "" then
        -- Fight Club's placeholders: %0 is the caster's ability modifier.
        local d = dice
        if not find(dice, "^[+-]%d+$") then -- "+2" (a bonus) reads as written
          d = dice_text(dice):gsub("%%%d+", "mod")
        end
        if type(r.level) == "number" and r.level > 0 then
          d = d .. " at " .. companion.format.ordinal(r.level) .. " level"
        end
        piece = piece == "" and d or piece .. ", " .. d
      end
      if piece ~= "" then
        local line = by[label]
        if line then
          line.text = line.text .. "; " .. piece
        else
          line = { label = label, text = piece, formula = dice }
          by[label] = line
          out[#out + 1] = line
        end
      end
    end
  end
  return out
end
local rolls_of = creature.rolls

-- slots_line: "3 cantrips, 1st 2" from a list of slot counts (cantrips,
-- then 1st to 9th level), as Fight Club 5e writes them.
function creature.slots_line(slots)
  local out = {}
  for i, n in ipairs(list_of(slots)) do
    if type(n) == "number" and n > 0 then
      if i == 1 then
        out[#out + 1] = n .. " cantrips"
      else
        out[#out + 1] = companion.format.ordinal(i - 1) .. " " .. n
      end
    end
  end
  return concat(out, ", ")
end

-- features formats special abilities, actions, reactions: each is
-- {name, text, blocks, rolls}: the usage appended to the name, the first
-- paragraph, the blocks after it and the rolls it offers (blocks and
-- rolls only when there are some).
function creature.features(list)
  if type(list) ~= "table" or #list == 0 then
    return {}
  end
  local out, n = {}, 0
  for i = 1, #list do
    local f = list[i]
    if type(f) == "table" then
      local name = f.name
      if type(name) ~= "string" then
        name = text_of(name)
      end
      local u = f.usage
      if u ~= nil then
        local suffix = usage(u)
        if suffix ~= "" and not find(name, suffix, 1, true) then
          name = name .. " " .. suffix
        end
      end
      local desc = f.desc
      n = n + 1
      -- A plain paragraph (the common case: most SRD actions) skips
      -- lib/text.lua: no line break, no Markdown marker, no surrounding
      -- space.
      local first, last
      if type(desc) == "string" then
        first, last = byte(desc, 1), byte(desc, -1)
      end
      local entry
      if first ~= nil and first > 32 and first ~= 124 and first ~= 45 and last > 32
        and not find(desc, "\n", 1, true) and not find(desc, "*", 1, true) then
        entry = { name = name, text = desc }
      else
        local lead, rest = lead_and_rest(desc)
        entry = { name = name, text = lead, blocks = rest }
      end
      local rolls = f.rolls
      if rolls ~= nil then
        rolls = rolls_of(rolls)
        if #rolls > 0 then
          entry.rolls = rolls
        end
      end
      out[n] = entry
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
