-- The grid's rules of D&D 5e (companion.grid): which squares an area of
-- effect covers, and how far a path goes.
--
-- Areas: the origin of a template is a grid intersection or any point;
-- a square is affected when the area covers at least half of it (the
-- rule the Dungeon Master's Guide gives for areas on a grid). Half is
-- judged on a 4 by 4 sample of points in the square.
--
-- Distance: every square of a move counts 5 feet, a diagonal one too (the
-- Player's Handbook's grid); a straight stretch is rounded to whole squares.
local abs, cos, sin, floor, ceil, max, sqrt = math.abs, math.cos, math.sin, math.floor, math.ceil, math.max, math.sqrt

local grid = {}

-- inside reports whether the point (x, y), in squares, is inside the
-- template t (its shapes as Companion measures them).
local function inside(t, x, y)
  local dx, dy = x - t.x, y - t.y
  local c, s = cos(t.angle), sin(t.angle)
  local u, v = dx * c + dy * s, -dx * s + dy * c
  local shape = t.shape
  if shape == "sphere" or shape == "cylinder" then
    return dx * dx + dy * dy <= t.radius * t.radius
  elseif shape == "cone" then
    -- as wide at any point as it is far from its origin
    return u >= 0 and abs(v) <= u / 2 and u * u + v * v <= t.length * t.length
  elseif shape == "line" then
    return u >= 0 and u <= t.length and abs(v) <= t.width / 2
  elseif shape == "cube" then
    return u >= 0 and u <= t.length and abs(v) <= t.length / 2
  elseif shape == "square" then
    return abs(u) <= t.length and abs(v) <= t.length
  end
  return false
end
grid.inside = inside

local SAMPLES = 4
local HALF = SAMPLES * SAMPLES / 2

-- squares lists the {column, row} of every square the template covers
-- at least half of.
function grid.squares(t)
  local reach = max(t.radius, sqrt(t.length * t.length + t.width * t.width))
  if t.shape == "square" then
    reach = t.length * sqrt(2)
  end
  local out = {}
  for row = floor(t.y - reach), ceil(t.y + reach) do
    for col = floor(t.x - reach), ceil(t.x + reach) do
      local n = 0
      for i = 0, SAMPLES - 1 do
        for j = 0, SAMPLES - 1 do
          if inside(t, col + (i + 0.5) / SAMPLES, row + (j + 0.5) / SAMPLES) then
            n = n + 1
          end
        end
      end
      if n >= HALF then
        out[#out + 1] = { col, row }
      end
    end
  end
  return out
end

-- distance counts a path's squares, a diagonal step as one square.
function grid.distance(p)
  local path, squares = p.path, 0
  for i = 3, #path - 1, 2 do
    local sx = floor(abs(path[i] - path[i - 2]) + 0.5)
    local sy = floor(abs(path[i + 1] - path[i - 1]) + 0.5)
    squares = squares + max(sx, sy)
  end
  return squares * p.scale
end

return grid
