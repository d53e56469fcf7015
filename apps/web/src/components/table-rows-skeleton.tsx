import { Skeleton, TableCell, TableRow } from "@mui/material";

/** Placeholder rows while a table page loads. */
export function TableRowsSkeleton({ columns, rows = 3 }: { columns: number; rows?: number }) {
  return (
    <>
      {Array.from({ length: rows }, (_, r) => (
        <TableRow key={`skeleton-${r}`}>
          {Array.from({ length: columns }, (_, c) => (
            <TableCell key={c}>
              <Skeleton variant="text" />
            </TableCell>
          ))}
        </TableRow>
      ))}
    </>
  );
}
