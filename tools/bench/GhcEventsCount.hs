-- GhcEventsCount: the bare parse of an eventlog with the ghc-events library, as the
-- yardstick of tools/bench.sh (conversion time / this time). Not a test, not installed.
--
--   ghc -O1 -package ghc-events GhcEventsCount.hs
--   ./GhcEventsCount FILE     -- prints the number of events
--
-- readEventLogFromFile decodes every event of the file (ghc-events sorts nothing: the
-- events come in file order); each event is evaluated to its constructor and counted.
module Main (main) where

import Data.List (foldl')
import GHC.RTS.Events (Data (..), Event (..), EventLog (..), readEventLogFromFile)
import System.Environment (getArgs)
import System.Exit (exitFailure)
import System.IO (hPutStrLn, stderr)

main :: IO ()
main = do
  args <- getArgs
  case args of
    [file] -> do
      r <- readEventLogFromFile file
      case r of
        Left err -> hPutStrLn stderr ("GhcEventsCount: " ++ err) >> exitFailure
        Right (EventLog _ (Data es)) -> print (foldl' (\n e -> evSpec e `seq` n + 1) (0 :: Int) es)
    _ -> hPutStrLn stderr "usage: GhcEventsCount FILE" >> exitFailure
