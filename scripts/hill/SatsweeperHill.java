// David Hill's Java solver (github.com/DavidNHill/Minesweeper) on layouts we give it, for
// scripts/hill_paired.py: compiled there against a checkout of that repository, which is not
// part of ours.  Reads lines "index width height mines m1 m2 ..." (a mine at row r, column c
// is r * width + c) and prints "index won guesses" for each: Hill's solver plays the whole
// game as his bulk runs do (MinesweeperBulk: the SMALL_ANALYSIS settings, no flags, its book
// first click at 0,0, which the layouts keep free of mines).  Arguments "ROW COLUMN" make the
// first click there instead (the layouts keep it free, or its whole 3x3 block for an opening).

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import minesweeper.gamestate.GameStateModel;
import minesweeper.gamestate.GameStateModelViewer;
import minesweeper.gamestate.MoveMethod;
import minesweeper.settings.GameSettings;
import minesweeper.solver.Solver;
import minesweeper.solver.settings.PlayStyle;
import minesweeper.solver.settings.SettingsFactory;
import minesweeper.solver.settings.SettingsFactory.Setting;
import minesweeper.solver.settings.SolverSettings;
import minesweeper.structure.Action;
import minesweeper.structure.Location;

public class SatsweeperHill {

    /** A game whose mines are given: Hill's game states draw their own. */
    static final class GivenGame extends GameStateModelViewer {
        private final int[][] number;  // [column][row]: a mine, or how many touch the cell

        GivenGame(GameSettings settings, int[] mines) {
            super(settings, 0);
            number = new int[width][height];
            for (int m : mines) {
                number[m % width][m / width] = GameStateModel.MINE;
            }
            for (int m : mines) {
                for (int j = 0; j < DX.length; j++) {
                    int x = m % width + DX[j], y = m / width + DY[j];
                    if (x >= 0 && x < width && y >= 0 && y < height && number[x][y] != GameStateModel.MINE) {
                        number[x][y]++;
                    }
                }
            }
        }

        @Override
        public List<Action> identifyLocations(Collection<? extends Location> cells) {
            List<Action> found = new ArrayList<>();
            for (Location c : cells) {
                int what = number[c.x][c.y] == GameStateModel.MINE ? Action.FLAG : Action.CLEAR;
                found.add(new Action(c, what, MoveMethod.CHEAT, "", BigDecimal.ONE));
            }
            return found;
        }

        @Override
        protected void startHandle(Location first) {  // the mines are already down
        }

        @Override
        protected void placeFlagHandle(Location cell) {
        }

        @Override
        protected int queryHandle(int x, int y) {
            return number[x][y];
        }

        @Override
        protected boolean clearSquareHitMine(Location cell) {
            if (number[cell.x][cell.y] == 0) {
                explode(cell);  // open the region a 0 starts
            }
            return number[cell.x][cell.y] == GameStateModel.MINE;
        }

        @Override
        protected boolean clearSurroundHandle(Location cell) {
            for (int j = 0; j < DX.length; j++) {
                int x = cell.x + DX[j], y = cell.y + DY[j];
                if (x >= 0 && x < width && y >= 0 && y < height) {
                    clearSquare(new Location(x, y));
                }
            }
            return true;
        }

        @Override
        public int privilegedQuery(Location cell, boolean showMines) {
            int shown = query(cell);
            if (shown == GameStateModel.MINE) {
                return GameStateModel.EXPLODED_MINE;
            }
            if (showMines && shown == GameStateModel.HIDDEN && number[cell.x][cell.y] == GameStateModel.MINE) {
                return GameStateModel.MINE;
            }
            return shown;
        }
    }

    /** The first click, if not Hill's book one (0,0). */
    static Location start = null;

    public static void main(String[] args) throws Exception {
        if (args.length == 2) {
            start = new Location(Integer.parseInt(args[1]), Integer.parseInt(args[0]));  // x is the column
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null) {
            String[] f = line.trim().split(" ");
            int width = Integer.parseInt(f[1]), height = Integer.parseInt(f[2]), count = Integer.parseInt(f[3]);
            int[] mines = new int[count];
            for (int i = 0; i < count; i++) {
                mines[i] = Integer.parseInt(f[4 + i]);
            }
            GivenGame game = new GivenGame(GameSettings.create(width, height, count), mines);
            System.out.println(f[0] + " " + play(game));
            System.out.flush();
        }
    }

    /** "won guesses", as Hill's BulkWorker plays a game. */
    static String play(GivenGame game) {
        SolverSettings settings = SettingsFactory.GetSettings(Setting.SMALL_ANALYSIS);
        settings.setSingleThread(true);
        if (start != null) {
            settings.setStartLocation(start);
        }
        Solver solver = new Solver(game, settings, false);
        solver.setPlayStyle(PlayStyle.NO_FLAG);
        int guesses = 0;
        // BulkWorker gives up on a game after 1000 rounds of moves; so do we (as a loss).
        for (int round = 0; round < 1000; round++) {
            solver.start();
            Action[] moves = solver.getResult();
            if (moves.length == 0) {
                break;
            }
            for (Action move : moves) {
                if (!move.isCertainty()) {
                    guesses++;
                }
                game.doAction(move);
                int state = game.getGameState();
                if (state == GameStateModel.WON || state == GameStateModel.LOST) {
                    return (state == GameStateModel.WON ? 1 : 0) + " " + guesses;
                }
            }
        }
        return "0 " + guesses;
    }
}
