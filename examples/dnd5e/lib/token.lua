-- Tokens placed on a map from a monster or a character (the token hook of
-- companion.entity): the footprint from the creature's size, the art from
-- the entity, and darkvision from its senses.
local type, tonumber = type, tonumber
local match = string.match

local token = {}

-- Grid cells a creature of each size fills (SRD: a Tiny creature shares a
-- 5-foot square, a Gargantuan one fills 20 by 20 feet or more).
local CELLS = { tiny = 0.5, small = 1, medium = 1, large = 2, huge = 3, gargantuan = 4 }

-- cells reads a size as the SRD writes it ("Small") or by its letter ("S").
local LETTERS = { t = "tiny", s = "small", m = "medium", l = "large", h = "huge", g = "gargantuan" }
local function cells(size)
  if type(size) ~= "string" then
    return 1
  end
  local key = size:lower()
  key = LETTERS[key] or key
  return CELLS[key] or 1
end
token.cells = cells

-- feet reads a range such as "60 ft." (or a bare number) as a number.
local function feet(v)
  if type(v) == "number" then
    return v
  end
  if type(v) ~= "string" then
    return 0
  end
  return tonumber(match(v, "(%d+)")) or 0
end
token.feet = feet

local function image_of(e)
  if type(e.token) == "string" and e.token ~= "" then
    return e.token
  end
  if type(e.image) == "string" and e.image ~= "" then
    return e.image
  end
  return nil
end

-- of returns the token hook for a kind. Characters see through their
-- token (vision enabled: it lights the players' view); a monster carries
-- its darkvision for the game master's view only.
function token.of(role, sees)
  return function(e)
    local data = type(e.data) == "table" and e.data or {}
    local n = cells(data.size)
    local senses = type(data.senses) == "table" and data.senses or {}
    local dark = feet(senses.darkvision)
    return {
      width = n,
      height = n,
      image = image_of(e),
      role = role,
      vision = {
        enabled = sees,
        light = false,
        dark = dark > 0,
        darkRadiusMin = 0,
        darkRadiusMax = dark,
        lightColor = "#ffffff",
        lightOpacity = 0.5,
      },
    }
  end
end

-- initiative is the initiative hook: a creature adds its Dexterity
-- modifier to the d20, and among equal totals the higher Dexterity score
-- acts first (then the server rolls off).
function token.initiative(e)
  local data = type(e.data) == "table" and e.data or {}
  local dex = type(data.dexterity) == "number" and data.dexterity or 10
  return { bonus = math.floor((dex - 10) / 2), tiebreak = dex }
end

return token
