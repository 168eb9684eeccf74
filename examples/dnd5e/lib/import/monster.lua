-- A <monster> of a legacy compendium as an SRD-shaped monster: every
-- field the stat block shows (lib/monster.lua) is filled from its text
-- ("17 (natural armor)", "135 (18d10+36)", "walk 30 ft., fly 60 ft.",
-- "Con +6, Int +8"...). What is not mapped stays in the element, and
-- Companion keeps it under data.unmapped.
local xml = require("lib.import.xml")

local take, take_text, text, list = xml.take, xml.take_text, xml.text, xml.list
local trim, number = xml.trim, xml.number

local monster = {}

-- XP by challenge rating (the SRD's table).
local XP = {
  ["0"] = 10, ["1/8"] = 25, ["1/4"] = 50, ["1/2"] = 100, ["1"] = 200, ["2"] = 450, ["3"] = 700, ["4"] = 1100,
  ["5"] = 1800, ["6"] = 2300, ["7"] = 2900, ["8"] = 3900, ["9"] = 5000, ["10"] = 5900, ["11"] = 7200,
  ["12"] = 8400, ["13"] = 10000, ["14"] = 11500, ["15"] = 13000, ["16"] = 15000, ["17"] = 18000,
  ["18"] = 20000, ["19"] = 22000, ["20"] = 25000, ["21"] = 33000, ["22"] = 41000, ["23"] = 50000,
  ["24"] = 62000, ["25"] = 75000, ["26"] = 90000, ["27"] = 105000, ["28"] = 120000, ["29"] = 135000,
  ["30"] = 155000,
}

-- challenge: "1/4" -> 0.25, 50 XP.
local function challenge(s)
  if s == "" then
    return nil, nil
  end
  local top, bottom = s:match("^(%d+)/(%d+)$")
  local cr
  if top then
    if xml.tonum(bottom) == 0 then
      return nil, nil
    end
    cr = xml.tonum(top) / xml.tonum(bottom)
  else
    cr = xml.number(s)
  end
  return cr, XP[s]
end

-- armor_class: "17 (natural armor)", "15 (leather armor, shield)", "12".
function monster.armor_class(s)
  local value, note = s:match("^(%d+)%s*%((.*)%)%s*$")
  if not value then
    value = s:match("^(%d+)")
    if not value then
      return nil
    end
    return { { type = "dex", value = xml.tonum(value) } }
  end
  value = xml.tonum(value)
  if note:lower() == "natural armor" then
    return { { type = "natural", value = value } }
  end
  return { { type = "armor", value = value, desc = note } }
end

-- hit_points: "135 (18d10+36)" -> 135, "18d10+36", "18d10".
function monster.hit_points(s)
  local hp, roll = s:match("^(%d+)%s*%((.-)%)")
  if not hp then
    return xml.tonum(s:match("^(%d+)") or ""), nil, nil
  end
  roll = roll:gsub("%s+", "")
  return xml.tonum(hp), roll, roll:match("^(%d+d%d+)")
end

-- speed: "walk 30 ft., fly 60 ft. (hover)", "10 ft., swim 40 ft." ->
-- { walk = "30 ft.", fly = "60 ft.", hover = true }.
function monster.speed(s)
  local out, any = {}, false
  for _, part in ipairs(xml.split(s, ",")) do
    if part:lower():find("hover", 1, true) then
      out.hover = true
      part = trim(part:gsub("%(?[Hh]over%)?", ""))
    end
    local mode, rest = part:match("^(%a+)%s+(%d.*)$")
    if not mode then
      mode, rest = "walk", part
    end
    if rest ~= "" then
      out[mode:lower()] = rest
      any = true
    end
  end
  if not any then
    return nil
  end
  return out
end

-- bonuses: "Con +6, Int +8" (or without commas) -> { {"Con", 6}, ... }.
local function bonuses(s)
  local out = {}
  for name, value in s:gmatch("([%a][%a ']-)%s*([+-]%s*%d+)") do
    name = trim(name)
    if name ~= "" then
      out[#out + 1] = { name, xml.tonum((value:gsub("%s+", ""))) }
    end
  end
  return out
end

-- proficiencies: saving throws and skills as the SRD lists them.
function monster.proficiencies(saves, skills)
  local out = {}
  for _, b in ipairs(bonuses(saves)) do
    local short = xml.ABILITIES[b[1]:lower()] or b[1]:upper()
    out[#out + 1] = { value = b[2], proficiency = { index = "saving-throw-" .. short:lower(), name = "Saving Throw: " .. short } }
  end
  for _, b in ipairs(bonuses(skills)) do
    out[#out + 1] = { value = b[2], proficiency = { index = "skill-" .. xml.slug(b[1]), name = "Skill: " .. b[1] } }
  end
  return out
end

-- senses: "darkvision 60 ft., passive Perception 13" -> { darkvision, passive_perception }.
function monster.senses(s, passive)
  local out = {}
  for _, part in ipairs(xml.split(s, ",")) do
    local pp = part:match("^[Pp]assive [Pp]erception%s+(%d+)")
    if pp then
      out.passive_perception = xml.tonum(pp)
    else
      local name, rest = part:match("^(%a+)%s+(.+)$")
      if name then
        out[name:lower()] = rest
      else
        out.other = part
      end
    end
  end
  if passive then
    out.passive_perception = passive
  end
  if next(out) == nil then
    return nil
  end
  return out
end

-- damage_list: "poison; bludgeoning, piercing, slashing from nonmagical
-- attacks" -> { "poison", "bludgeoning, piercing, slashing from nonmagical
-- attacks" }: plain types one by one, a qualified group whole (the view
-- prints them back the same way).
local QUALIFIERS = { " from ", " that ", " while ", " except ", " in " }

local function qualified(group)
  for _, q in ipairs(QUALIFIERS) do
    if group:find(q, 1, true) then
      return true
    end
  end
  return false
end

function monster.damage_list(s)
  local out = {}
  for _, group in ipairs(xml.split(s, ";")) do
    if qualified(group) then
      out[#out + 1] = group
    else
      for _, d in ipairs(xml.split(group, ",")) do
        out[#out + 1] = d
      end
    end
  end
  return out
end

-- features: <trait>, <action>... as { name, desc, rolls } (desc one
-- string with line breaks, as SRD actions are). Attacks also fill the
-- SRD's attack_bonus and damage.
function monster.features(value, sources)
  local out = {}
  for _, f in ipairs(list(value)) do
    if type(f) == "table" then
      local feature = {
        name = xml.take_text(f, "name"),
        desc = xml.joined(xml.paragraphs(take(f, "text"), sources)),
      }
      local rolls = xml.rolls(take(f, "roll"), take(f, "attack"))
      if #rolls > 0 then
        feature.rolls = rolls
        for _, r in ipairs(rolls) do
          if r.attack_bonus and feature.attack_bonus == nil then
            feature.attack_bonus = r.attack_bonus
          end
          if r.dice and r.dice:find("d", 1, true) then
            feature.damage = feature.damage or {}
            feature.damage[#feature.damage + 1] = { damage_dice = r.dice }
          end
        end
      end
      local recharge = xml.take_text(f, "recharge")
      if recharge ~= "" then
        feature.recharge = recharge
      end
      if type(f._attr) == "table" and f._attr.category then
        feature.category = f._attr.category
        f._attr.category = nil
        if next(f._attr) == nil then
          f._attr = nil
        end
      end
      -- Anything else the feature held (a proficiency, a modifier): kept.
      for k, v in pairs(f) do
        feature[k] = feature[k] or v
      end
      out[#out + 1] = feature
    elseif type(f) == "string" and f ~= "" then
      out[#out + 1] = { name = "", desc = f }
    end
  end
  return out
end

-- spell names: "mage hand, fireball" -> SRD references.
local function spell_refs(s)
  local out = {}
  for _, name in ipairs(xml.split(s, ",")) do
    out[#out + 1] = xml.ref(name)
  end
  return out
end

function monster.import(el)
  local sources = {}
  local name = take_text(el, "name")
  local data = {}
  local slug = take_text(el, "slug")
  data.index = slug ~= "" and slug or xml.slug(name)
  data.size = xml.size(take(el, "size"))

  local kind = take_text(el, "type")
  local main, sub = kind:match("^(.-)%s*%((.-)%)%s*$")
  if main then
    data.type, data.subtype = main, sub
  else
    data.type = kind
  end
  data.alignment = take_text(el, "alignment")
  data.armor_class = monster.armor_class(take_text(el, "ac"))
  data.hit_points, data.hit_points_roll, data.hit_dice = monster.hit_points(take_text(el, "hp"))
  data.speed = monster.speed(take_text(el, "speed"))
  data.strength = number(take(el, "str"))
  data.dexterity = number(take(el, "dex"))
  data.constitution = number(take(el, "con"))
  data.intelligence = number(take(el, "int"))
  data.wisdom = number(take(el, "wis"))
  data.charisma = number(take(el, "cha"))
  data.proficiencies = monster.proficiencies(take_text(el, "save"), take_text(el, "skill"))
  data.damage_vulnerabilities = monster.damage_list(take_text(el, "vulnerable"))
  data.damage_resistances = monster.damage_list(take_text(el, "resist"))
  data.damage_immunities = monster.damage_list(take_text(el, "immune"))
  data.condition_immunities = xml.split(take_text(el, "conditionImmune"), ",;")
  data.senses = monster.senses(take_text(el, "senses"), number(take(el, "passive")))
  data.languages = take_text(el, "languages")
  local cr = take_text(el, "cr")
  data.challenge_rating, data.xp = challenge(cr)

  data.special_abilities = monster.features(take(el, "trait"), sources)
  data.actions = monster.features(take(el, "action"), sources)
  data.reactions = monster.features(take(el, "reaction"), sources)
  local legendary, lair = {}, {}
  for _, f in ipairs(monster.features(take(el, "legendary"), sources)) do
    if f.category == "lair" then
      f.category = nil
      lair[#lair + 1] = f
    elseif f.name:match("^Legendary Actions") then
      -- Fight Club's introduction ("Legendary Actions (3/Turn)").
      data.legendary_desc = f.desc
    else
      legendary[#legendary + 1] = f
    end
  end
  data.legendary_actions = legendary
  if #lair > 0 then
    data.lair_actions = lair
  end

  local spells = take_text(el, "spells")
  if spells ~= "" then
    data.spells = spell_refs(spells)
    -- The spellcasting trait lists them too, as the SRD's does.
    for _, f in ipairs(data.special_abilities) do
      if f.name:find("Spellcasting", 1, true) then
        f.spellcasting = { spells = data.spells }
      end
    end
  end
  local slots = take_text(el, "slots")
  if slots ~= "" then
    data.spell_slots = {}
    for i, n in ipairs(xml.split(slots, ",")) do
      data.spell_slots[i] = xml.tonum(n) or 0
    end
  end
  local desc = xml.paragraphs(take(el, "description"), sources)
  if #desc > 0 then
    data.desc = xml.joined(desc)
  end
  local environment = take_text(el, "environment")
  if environment == "" then
    environment = take_text(el, "environments")
  end
  if environment ~= "" then
    data.environments = xml.split(environment, ",")
  end
  xml.sources(take_text(el, "source"), sources)

  return {
    kind = "monster",
    name = name,
    slug = slug ~= "" and slug or nil,
    image = take_text(el, "image"),
    token = take_text(el, "token"),
    data = data,
    sources = sources,
  }
end

return monster
