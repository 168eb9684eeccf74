-- Items: SRD equipment (weapons, armor, gear, tools, mounts) and magic
-- items, one kind. A record with a rarity is a magic item.
local companion = require("companion")
local util = require("lib.util")
local text = require("lib.text")
local creature = require("lib.creature")

local item = {}

local number = companion.format.number

-- The first paragraph of an SRD magic item is its type line ("Wondrous
-- item, rare (requires attunement)"); it starts with one of these words.
local TYPE_WORDS = {
  Wondrous = true, Wondous = true, Armor = true, Weapon = true, Potion = true, Ring = true,
  Rod = true, Scroll = true, Staff = true, Wand = true, Ammunition = true,
}

local SINGULAR = {
  ["Wondrous Items"] = "Wondrous item",
  ["Adventuring Gear"] = "Adventuring gear",
  ["Mounts and Vehicles"] = "Mounts and vehicles",
}

local function is_type_line(p)
  if type(p) ~= "string" or #p > 160 or p:sub(-1) == "." then
    return false
  end
  local word = p:match("^(%a+)")
  return word ~= nil and TYPE_WORDS[word] == true and p:find(",", 1, true) ~= nil
end

-- weight: "3 lb.", "1/4 lb.", "1.5 lb.".
local function weight(v)
  local w = util.number(v)
  if w == nil then
    return ""
  end
  if w < 1 and w > 0 then
    return companion.format.fraction(w) .. " lb."
  end
  if w == math.floor(w) then
    return number(w) .. " lb."
  end
  return string.format("%g lb.", w)
end

-- cost: "15 gp", "1,500 gp".
local function cost(v)
  if type(v) ~= "table" or util.number(v.quantity) == nil then
    return util.text(v)
  end
  return util.join({ number(v.quantity), util.text(v.unit) }, " ")
end

-- damage: "1d8 slashing".
local function damage(v)
  if type(v) ~= "table" then
    return ""
  end
  return util.join({ util.text(v.damage_dice), util.name_of(v.damage_type):lower() }, " ")
end

local function range_text(r)
  if type(r) ~= "table" or util.number(r.normal) == nil then
    return ""
  end
  if util.number(r.long) then
    return r.normal .. "/" .. r.long .. " ft."
  end
  return r.normal .. " ft."
end

-- armor class of armor: "11 + Dex modifier", "12 + Dex modifier (max 2)",
-- "18"; a shield reads "+2".
local function armor_class(data)
  local ac = data.armor_class
  if type(ac) ~= "table" or util.number(ac.base) == nil then
    return ""
  end
  if util.text(data.armor_category) == "Shield" then
    return companion.format.signed(ac.base)
  end
  local s = tostring(ac.base)
  if ac.dex_bonus == true then
    s = s .. " + Dex modifier"
    if util.number(ac.max_bonus) then
      s = s .. " (max " .. ac.max_bonus .. ")"
    end
  end
  return s
end

-- properties: "Finesse, light, thrown (range 20/60)", "Versatile (1d10)".
local function properties(data)
  local out = {}
  for _, p in ipairs(util.list(data.properties)) do
    local n = util.name_of(p)
    if n ~= "" then
      local lower = n:lower()
      local s = lower
      if lower == "thrown" and type(data.throw_range) == "table" then
        s = "thrown (range " .. range_text(data.throw_range):gsub(" ft%.$", "") .. ")"
      elseif lower == "ammunition" and type(data.range) == "table" and util.number(data.range.long) then
        s = "ammunition (range " .. range_text(data.range):gsub(" ft%.$", "") .. ")"
      elseif lower == "versatile" and type(data.two_handed_damage) == "table" then
        s = "versatile (" .. util.text(data.two_handed_damage.damage_dice) .. ")"
      end
      out[#out + 1] = s
    end
  end
  if #out == 0 then
    return ""
  end
  out[1] = util.upper_first(out[1])
  return table.concat(out, ", ")
end

-- equipment_line: "Martial melee weapon", "Heavy armor", "Shield",
-- "Adventuring gear (standard gear)", "Tools (artisan's tools)".
local function equipment_line(data, category)
  local cat_range = util.text(data.category_range)
  if cat_range ~= "" then
    return util.upper_first(cat_range:lower()) .. " weapon"
  end
  local armor_cat = util.text(data.armor_category)
  if armor_cat ~= "" then
    if armor_cat == "Shield" then
      return "Shield"
    end
    return armor_cat .. " armor"
  end
  local sub = util.name_of(data.gear_category)
  if sub == "" then
    sub = util.text(data.tool_category)
  end
  if sub == "" then
    sub = util.text(data.vehicle_category)
  end
  local line = SINGULAR[category] or category
  if sub ~= "" and sub ~= category then
    if line == "" then
      return sub
    end
    line = line .. " (" .. sub:lower() .. ")"
  end
  return line
end

local function contents(list)
  local out = {}
  for _, c in ipairs(util.list(list)) do
    if type(c) == "table" then
      local n = util.name_of(c.item)
      local q = util.number(c.quantity)
      if n ~= "" then
        if q and q > 1 then
          n = n .. " ×" .. number(q)
        end
        out[#out + 1] = n
      end
    end
  end
  return table.concat(out, ", ")
end

local function vehicle_speed(v)
  if type(v) ~= "table" or util.number(v.quantity) == nil then
    return util.text(v)
  end
  return util.join({ number(v.quantity), util.text(v.unit) }, " ")
end

-- Lines an item may lack; subtitle, category, magic and attunement are
-- always in the view.
local OPTIONAL = {
  "rarity", "cost", "weight", "damage", "two_handed_damage", "range", "armor_class", "strength", "stealth",
  "weapon_properties", "description", "special", "details",
}

function item.view(e)
  local data = e.data
  if type(data) ~= "table" or data == companion.null then
    data = {}
  end
  local category = util.name_of(data.equipment_category)
  local rarity = util.name_of(data.rarity)
  local magic = rarity ~= ""
  local desc = util.list(data.desc)
  if type(data.desc) == "string" then
    desc = { data.desc }
  end

  local subtitle
  if magic and is_type_line(desc[1]) then
    -- two SRD records misspell the category ("Wondrous Items", "Wondous item")
    subtitle = desc[1]
    local word = subtitle:match("^(%a+ %a+),")
    if word == "Wondrous Items" or word == "Wondous item" then
      subtitle = "Wondrous item" .. subtitle:sub(#word + 1)
    end
    local rest = {}
    for i = 2, #desc do
      rest[#rest + 1] = desc[i]
    end
    desc = rest
  elseif magic then
    subtitle = util.join({ SINGULAR[category] or category, rarity:lower() }, ", ")
  else
    subtitle = equipment_line(data, category)
  end

  local v = {
    subtitle = subtitle,
    category = category,
    magic = magic,
    rarity = rarity,
    attunement = subtitle:find("requires attunement", 1, true) ~= nil,
    cost = cost(data.cost),
    weight = weight(data.weight),
    damage = damage(data.damage),
    two_handed_damage = damage(data.two_handed_damage),
    range = "",
    armor_class = armor_class(data),
    strength = "",
    stealth = "",
    weapon_properties = properties(data),
    description = text.blocks(desc),
    special = text.blocks(data.special),
  }
  if util.text(data.weapon_range) == "Ranged" then
    v.range = range_text(data.range)
  end
  if util.number(data.str_minimum) and data.str_minimum > 0 then
    v.strength = "Str " .. data.str_minimum
  end
  if data.stealth_disadvantage == true then
    v.stealth = "Disadvantage"
  end

  local rows = {}
  util.property(rows, "Cost", v.cost)
  util.property(rows, "Weight", v.weight)
  util.property(rows, "Armor Class", v.armor_class)
  util.property(rows, "Strength", v.strength)
  util.property(rows, "Stealth", v.stealth)
  util.property(rows, "Damage", v.damage)
  util.property(rows, "Two-Handed Damage", v.two_handed_damage)
  util.property(rows, "Range", v.range)
  util.property(rows, "Properties", v.weapon_properties)
  if util.number(data.quantity) then
    util.property(rows, "Quantity", number(data.quantity))
  end
  util.property(rows, "Speed", vehicle_speed(data.speed))
  util.property(rows, "Carrying Capacity", util.text(data.capacity))
  util.property(rows, "Contents", contents(data.contents))
  -- Rolls of an imported item ("Fire Damage: 1d4").
  for _, r in ipairs(creature.rolls(data.rolls)) do
    util.property(rows, r.label, r.text)
  end
  v.details = rows
  return util.drop_empty(v, OPTIONAL)
end

function item.references(e)
  local data = e.data
  if type(data) ~= "table" then
    return {}
  end
  local refs = util.add_refs({}, "item", data.contents, "item")
  return util.add_refs(refs, "item", data.variants)
end

return item
