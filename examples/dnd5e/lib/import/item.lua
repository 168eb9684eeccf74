-- An <item> of a legacy compendium as an SRD-shaped equipment or magic
-- item (lib/item.lua): type, rarity and attunement, weight, value,
-- weapon properties, damage, range, armor class, strength and stealth.
local xml = require("lib.import.xml")

local take, take_text, text = xml.take, xml.take_text, xml.text

local item = {}

-- The type codes of both formats: the SRD category, and what it says
-- besides.
local TYPES = {
  LA = { category = "Armor", armor = "Light" },
  MA = { category = "Armor", armor = "Medium" },
  HA = { category = "Armor", armor = "Heavy" },
  S = { category = "Armor", armor = "Shield" },
  AA = { category = "Armor" },
  M = { category = "Weapon", range = "Melee" },
  R = { category = "Weapon", range = "Ranged" },
  WW = { category = "Weapon" },
  A = { category = "Adventuring Gear", gear = "Ammunition", word = "Ammunition" },
  RD = { category = "Rod" },
  ST = { category = "Staff" },
  WD = { category = "Wand" },
  RG = { category = "Ring" },
  P = { category = "Potion" },
  SC = { category = "Scroll" },
  W = { category = "Wondrous Items", word = "Wondrous item" },
  G = { category = "Adventuring Gear" },
  ["$"] = { category = "Wealth" },
}

local PROPERTIES = {
  A = "Ammunition", F = "Finesse", H = "Heavy", L = "Light", LD = "Loading", R = "Reach",
  S = "Special", T = "Thrown", ["2H"] = "Two-Handed", V = "Versatile", RN = "Range",
}

local DAMAGE = {
  B = "Bludgeoning", P = "Piercing", S = "Slashing", A = "Acid", C = "Cold", F = "Fire", FC = "Force",
  L = "Lightning", N = "Necrotic", PS = "Poison", PY = "Psychic", R = "Radiant", T = "Thunder",
}

local RARITIES = { "very rare", "uncommon", "common", "rare", "legendary", "artifact", "varies", "unknown rarity" }

-- rarity finds the rarity in a detail line: "rare (requires attunement
-- by a wizard)" -> "Rare", "", "(requires attunement by a wizard)";
-- "spellcasting focus, rare" -> "Rare", "spellcasting focus", "".
local function rarity(s)
  local lower = s:lower()
  for _, r in ipairs(RARITIES) do
    local at = 1
    while true do
      local i, j = lower:find(r, at, true)
      if not i then
        break
      end
      local before, after = lower:sub(i - 1, i - 1), lower:sub(j + 1, j + 1)
      if (i == 1 or before == " " or before == ",") and (after == "" or after == " " or after == "," or after == "(") then
        local name = r:gsub("(%a)(%w*)", function(a, b) return a:upper() .. b end)
        local head = xml.trim(s:sub(1, i - 1)):gsub(",$", "")
        return name, xml.trim(head), xml.trim(s:sub(j + 1))
      end
      at = j + 1
    end
  end
  return nil, s, ""
end

-- cost: Fight Club's value is in gold pieces (0.2 is 2 sp); the
-- original application's may say its unit ("15 gp").
function item.cost(s)
  if s == "" then
    return nil
  end
  local q, unit = s:match("^([%d.,]+)%s*(%a+)$")
  if q then
    return { quantity = xml.tonum((q:gsub(",", ""))), unit = unit:lower() }
  end
  local gp = xml.tonum(s)
  if not gp then
    return s
  end
  if gp >= 1 or gp == 0 then
    return { quantity = gp, unit = "gp" }
  elseif gp * 10 == math.floor(gp * 10) then
    return { quantity = math.floor(gp * 10 + 0.5), unit = "sp" }
  end
  return { quantity = math.floor(gp * 100 + 0.5), unit = "cp" }
end

-- range: "20/60" -> { normal = 20, long = 60 }.
local function range(s)
  local normal, long = s:match("^(%d+)%s*/%s*(%d+)")
  if normal then
    return { normal = xml.tonum(normal), long = xml.tonum(long) }
  end
  normal = s:match("^(%d+)")
  if normal then
    return { normal = xml.tonum(normal) }
  end
  return nil
end

local function damage(dice, kind)
  if dice == "" then
    return nil
  end
  local d = { damage_dice = dice }
  if kind ~= "" then
    local name = DAMAGE[kind:upper()] or kind
    d.damage_type = { index = name:lower(), name = name }
  end
  return d
end

function item.import(el)
  local sources = {}
  local name = take_text(el, "name")
  local slug = take_text(el, "slug")
  local data = { index = slug ~= "" and slug or xml.slug(name) }
  local code = take_text(el, "type")
  local t = TYPES[code:upper()] or { category = code }
  if t.category ~= "" then
    data.equipment_category = { index = xml.slug(t.category), name = t.category }
  end
  if t.gear then
    data.gear_category = { index = xml.slug(t.gear), name = t.gear }
  end

  -- Properties; Fight Club marks martial weapons with an M among them.
  local martial = false
  local properties = {}
  for _, p in ipairs(xml.split(take_text(el, "property"), ",")) do
    if p:upper() == "M" then
      martial = true
    else
      local pname = PROPERTIES[p:upper()] or p
      properties[#properties + 1] = { index = xml.slug(pname), name = pname }
    end
  end
  if #properties > 0 then
    data.properties = properties
  end

  local ac = xml.number(take(el, "ac"))
  if t.armor then
    data.armor_category = t.armor
    data.armor_class = { base = ac, dex_bonus = t.armor == "Light" or t.armor == "Medium" }
    if t.armor == "Medium" then
      data.armor_class.max_bonus = 2
    end
  elseif ac then
    data.armor_class = { base = ac }
  end
  data.str_minimum = xml.number(take(el, "strength"))
  data.stealth_disadvantage = xml.yes(take(el, "stealth")) or nil

  local dmg_type = take_text(el, "dmgType")
  data.damage = damage(take_text(el, "dmg1"), dmg_type)
  local versatile = damage(take_text(el, "dmg2"), dmg_type)
  if versatile then
    data.two_handed_damage = versatile
  end
  local r = range(take_text(el, "range"))
  if t.range then
    data.weapon_range = t.range
    data.weapon_category = martial and "Martial" or "Simple"
    data.category_range = data.weapon_category .. " " .. t.range
    if t.range == "Ranged" then
      data.range = r
    else
      data.range = { normal = 5 }
      for _, p in ipairs(properties) do
        if p.index == "thrown" then
          data.throw_range = r
        elseif p.index == "reach" then
          data.range = { normal = 10 }
        end
      end
    end
  elseif r then
    data.range = r
  end
  data.weight = xml.number(take(el, "weight"))
  data.cost = item.cost(take_text(el, "value"))

  -- Rarity and attunement: Fight Club's <detail> ("rare (requires
  -- attunement)") of an item marked <magic>, or the original
  -- application's <rarity> and <attunement>, or its <heading> (the whole
  -- type line). Fight Club gives mundane gear a rarity too ("common"):
  -- kept as written under detail.
  local magic = xml.yes(take(el, "magic"))
  local detail = take_text(el, "detail")
  local explicit = take_text(el, "rarity")
  local rarity_name, rest, tail = rarity(detail)
  if explicit ~= "" then
    rarity_name, rest, tail = rarity(explicit) or explicit, detail, ""
  end
  local attunement = take_text(el, "attunement")
  if tail:lower():find("attunement", 1, true) then
    attunement = (tail:gsub("^%((.*)%)$", "%1"))
  elseif tail ~= "" then
    rest = xml.trim(rest .. " " .. tail)
  end
  if magic or explicit ~= "" then
    data.rarity = { name = rarity_name or "Varies" }
    if rest ~= "" then
      data.detail = rest
    end
  elseif detail ~= "" then
    data.detail = detail
  end
  if attunement ~= "" then
    data.attunement = attunement
  end

  local sources_text = take_text(el, "source")
  local desc = xml.paragraphs(take(el, "text"), sources)
  local heading = take_text(el, "heading")
  if heading == "" and data.rarity then
    -- The type line a magic item's description opens with (its view's
    -- subtitle): "Wondrous item, rare (requires attunement)".
    local word = t.word or t.category
    if t.armor then
      word = "Armor (" .. t.armor:lower() .. ")"
    elseif t.range then
      word = "Weapon (" .. name:lower() .. ")"
    elseif t.category == "Adventuring Gear" or t.category == "Wealth" or t.category == "" then
      word = "Wondrous item"
    end
    heading = word .. ", " .. data.rarity.name:lower()
    if attunement ~= "" then
      if attunement:lower():find("attunement", 1, true) then
        heading = heading .. " (" .. attunement:gsub("^%u", string.lower) .. ")"
      else
        heading = heading .. " (requires attunement)"
      end
    end
  end
  if heading ~= "" then
    table.insert(desc, 1, heading)
  end
  data.desc = desc
  local rolls = xml.rolls(take(el, "roll"))
  if #rolls > 0 then
    data.rolls = rolls
  end
  local modifiers = {}
  for _, m in ipairs(xml.list(take(el, "modifier"))) do
    local mod = { text = text(m) }
    if type(m) == "table" and type(m._attr) == "table" then
      mod.category = m._attr.category
    end
    modifiers[#modifiers + 1] = mod
  end
  if #modifiers > 0 then
    data.modifiers = modifiers
  end
  xml.sources(sources_text, sources)
  return {
    kind = "item",
    name = name,
    slug = slug ~= "" and slug or nil,
    image = take_text(el, "image"),
    data = data,
    sources = sources,
  }
end

return item
