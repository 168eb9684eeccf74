-- What players read of investigators, horrors and gear: the lines of a
-- sheet, a horror's dossier and a gear card, for the pongo2 templates.
local type, ipairs, tostring = type, ipairs, tostring
local floor = math.floor

local views = {}

local function list(v)
  if type(v) == "table" then
    return v
  end
  return {}
end

local function text(v)
  if type(v) == "string" then
    return v
  end
  if type(v) == "number" then
    return tostring(v)
  end
  return ""
end
views.text = text

-- skills: { { name = "Spot Hidden", value = 60, hard = 30, extreme = 12 } }
function views.skills(data)
  local out = {}
  for _, s in ipairs(list(data.skills)) do
    if type(s) == "table" and type(s.name) == "string" and type(s.value) == "number" then
      out[#out + 1] = { name = s.name, value = s.value, hard = floor(s.value / 2), extreme = floor(s.value / 5) }
    end
  end
  return out
end

-- vigour: "9 / 11"
function views.vigour(data)
  local cur, max = data.vigour, data.max_vigour
  if type(cur) == "number" and type(max) == "number" then
    return cur .. " / " .. max
  end
  return text(cur)
end

function views.investigator(e)
  local data = type(e.data) == "table" and e.data or {}
  local nerve = type(data.nerve) == "table" and data.nerve or {}
  return {
    name = e.name,
    occupation = text(data.occupation),
    player = text(data.player),
    vigour = views.vigour(data),
    shaken = type(nerve.shaken) == "number" and nerve.shaken or 0,
    wits = type(data.wits) == "number" and data.wits or 0,
    skills = views.skills(data),
    notes = text(data.notes),
  }
end

function views.horror(e)
  local data = type(e.data) == "table" and e.data or {}
  return {
    name = e.name,
    threat = text(data.threat),
    vigour = views.vigour(data),
    sign = text(data.sign),
    habits = text(data.habits),
    skills = views.skills(data),
  }
end

function views.gear(e)
  local data = type(e.data) == "table" and e.data or {}
  return {
    name = e.name,
    category = text(data.category),
    cost = text(data.cost),
    harm = text(data.harm),
    about = text(data.about),
  }
end

return views
